import { seal, unseal } from '../../auth/sealed-keys';

// A relay's key, sealed as editor keys are (lib/auth/sealed-keys.ts, decision 0033): AES-256-GCM
// under a key derived (HKDF) from the session key, which the database never holds, for this one
// purpose; the relay's id is the associated data, so a sealed key opens only on its own row. The
// session key is AUTH_SECRET, or on the embedded database the key file the install made at its
// first start (lib/auth/secret.ts); a process with DATABASE_URL and no AUTH_SECRET has none, and
// sealing throws ConfigError (no such server starts). A new session key leaves every sealed key
// unreadable: the relay then pauses and asks to be added again (lib/wakatime/relaying/sender.ts).

const RELAY_KEYS = 'relay keys';

/** `key` sealed for the relay `relayId`. */
export const sealRelayKey = (key: string, relayId: string): string => seal(RELAY_KEYS, key, relayId);

/** The key a sealed value holds, when it opens with the current session key on the relay `relayId`; null otherwise. */
export const openRelayKey = (sealed: string, relayId: string): string | null => unseal(RELAY_KEYS, sealed, relayId);
