// The service worker of the diner pages: browser push only (docs/product.md §8). A call, a
// getting-close message or a message from the venue arrives as a notification that opens the
// party's position page, even with the page closed. No caching, no fetch handler.
/* global self */
self.addEventListener('push', (event) => {
  let data;
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  const url = typeof data.url === 'string' ? data.url : '/';
  event.waitUntil(
    self.registration.showNotification(data.title || 'Vez', {
      body: data.body || '',
      icon: '/favicon.svg',
      tag: url,
      renotify: true,
      data: { url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || '/';
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const client of windows) if (client.url === url && 'focus' in client) return client.focus();
      return self.clients.openWindow(url);
    }),
  );
});
