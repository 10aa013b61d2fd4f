import { describe, expect, it } from 'vitest';
import { FullNameRequiredError, buildUserPayload, splitFullName } from './build-user-payload';

describe('name split (docs/product.md §15)', () => {
  it('takes the last word as the last name and the rest as the first name', () => {
    expect(splitFullName('Maria Souza')).toEqual({ firstName: 'Maria', lastName: 'Souza' });
    expect(splitFullName('  Ana  Maria   de Souza ')).toEqual({ firstName: 'Ana Maria de', lastName: 'Souza' });
  });

  it('refuses a single word with the spec message', () => {
    expect(() => splitFullName('Maria')).toThrow(FullNameRequiredError);
    expect(() => splitFullName('Maria')).toThrow('Por favor, informe seu nome completo.');
    expect(() => splitFullName('   ')).toThrow(FullNameRequiredError);
  });
});

describe('user creation payload (docs/product.md §13)', () => {
  it('sends the phone as digits with a leading plus and the code with its channel', () => {
    const payload = buildUserPayload(
      { name: 'João da Silva', phone: '+55 (11) 98765-4321', email: ' joao@example.com ' },
      { otp: '012345', channel: 'email' },
      '6553f1a2b3c4d5e6f7a8b902',
      'pt',
    );
    expect(payload).toEqual({
      firstName: 'João da',
      lastName: 'Silva',
      phone: '+5511987654321',
      email: 'joao@example.com',
      otp: '012345',
      channel: 'email',
      venueId: '6553f1a2b3c4d5e6f7a8b902',
      lang: 'pt',
    });
  });

  it('leaves out an empty email', () => {
    const payload = buildUserPayload(
      { name: 'Ana Lima', phone: '+5511987654321', email: '' },
      { otp: '123456', channel: 'sms' },
      'v',
      'en',
    );
    expect(payload).not.toHaveProperty('email');
  });
});
