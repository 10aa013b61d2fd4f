import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Link, MemoryRouter, Navigate, Route, Routes, matchPath, useLocation, useParams, useSearchParams } from './router';

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{`${pathname}${search}`}</output>;
}

function Party() {
  const { waitlistId } = useParams();
  const [params, setParams] = useSearchParams();
  return (
    <>
      <p>party {waitlistId}</p>
      <p>lng {params.get('lng') ?? '-'}</p>
      <button type="button" onClick={() => setParams((current) => (current.delete('passport'), current), { replace: true })}>
        drop
      </button>
      <Link to="/terms-service">terms</Link>
    </>
  );
}

function App({ at }: { at: string }) {
  return (
    <MemoryRouter initialEntries={[at]}>
      <Routes>
        <Route path="/waitlist/:waitlistId" element={<Party />} />
        <Route path="/terms-service" element={<p>terms page</p>} />
        <Route path="/old" element={<Navigate to="/terms-service" replace />} />
        <Route path="*" element={<p>fallback</p>} />
      </Routes>
      <Where />
    </MemoryRouter>
  );
}

describe('the diner router (docs/decisions/034-lean-diner-pages.md)', () => {
  it('matches like react-router: case-insensitive, an optional trailing slash, decoded params, splats', () => {
    expect(matchPath('/waitlist/:waitlistId', '/waitlist/a%20b')).toEqual({ params: { waitlistId: 'a b' } });
    expect(matchPath('/waitlist/:waitlistId', '/Waitlist/x/')).toEqual({ params: { waitlistId: 'x' } });
    expect(matchPath('/waitlist/:waitlistId', '/waitlist/x/y')).toBeNull();
    expect(matchPath('/waitlist/:waitlistId', '/waitlist/')).toBeNull();
    expect(matchPath('/terms-service', '/terms-service')).toEqual({ params: {} });
    expect(matchPath('/host/*', '/host')).not.toBeNull();
    expect(matchPath('/host/*', '/host/v1/queue')?.params['*']).toBe('v1/queue');
    expect(matchPath('/host/*', '/hostile')).toBeNull();
    expect(matchPath('*', '/anything/at/all')).not.toBeNull();
  });

  it('renders the first matching route with its params, and the fallback otherwise', () => {
    render(<App at="/waitlist/abc?lng=en" />);
    expect(screen.getByText('party abc')).toBeInTheDocument();
    expect(screen.getByText('lng en')).toBeInTheDocument();
  });

  it('sets the query keeping the path, and a link navigates in the page', async () => {
    const user = userEvent.setup();
    render(<App at="/waitlist/abc?passport=p1&lng=pt" />);
    await user.click(screen.getByRole('button', { name: 'drop' }));
    expect(await screen.findByText('/waitlist/abc?lng=pt')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'terms' })).toHaveAttribute('href', '/terms-service');
    await user.click(screen.getByRole('link', { name: 'terms' }));
    expect(await screen.findByText('terms page')).toBeInTheDocument();
    expect(screen.getByTestId('where').textContent).toBe('/terms-service');
  });

  it('redirects with <Navigate>, and shows the fallback for any other path', async () => {
    render(<App at="/old" />);
    expect(await screen.findByText('terms page')).toBeInTheDocument();
    render(<App at="/nowhere" />);
    expect(screen.getByText('fallback')).toBeInTheDocument();
  });
});
