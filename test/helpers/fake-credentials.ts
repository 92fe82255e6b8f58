/**
 * Credentials shaped like real ones, none of them valid, for the tests of the commit gate's
 * credential check. Each is put together from pieces here, so this file holds none of them whole:
 * a secret scanner reading the repository (GitHub's push protection, the gate itself) finds nothing.
 */

const join = (...parts: string[]) => parts.join('');

/** 40 characters of the secret access key's alphabet, from a seed, so each test can have its own. */
function awsSecretBody(seed: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+';
  let state = [...seed].reduce((n, c) => (n * 31 + c.charCodeAt(0)) >>> 0, 7);
  let out = '';
  for (let i = 0; i < 40; i += 1) {
    state = (state * 1103515245 + 12345) >>> 0;
    out += alphabet[state % alphabet.length];
  }
  return out;
}

export const fakeAwsAccessKeyId = join('AK', 'IA', 'Q3EGRXK7', 'WPLM5TZ2');
export const fakeAwsSecretAccessKey = awsSecretBody('plangate-aws');
/** GitHub's classic shapes: a prefix and exactly 36 characters. */
export const fakeGithubClassicToken = join('gh', 'p_', 'R7xKq2Lm9Vt4Wn8Ys1Bc', '5Dh3Fj6Gk0Pz2Qa4');
export const fakeGithubOauthToken = join('gh', 'o_', 'M2nB8vC4xZ6lK1jH9gF3', 'dS5aP7oI0uY2tR4e');
export const fakeGithubFineGrainedToken = join(
  'github',
  '_pat_',
  '11ABCDE2F0q9W8e7R6t5Y4_',
  'u3I2o1P0aSdFgHjKlZxCvBnMqWeRtYuIoPaSdFgHjKlZxCvBnMqWeRtYuIo',
);
export const fakeSlackBotToken = join(
  'xo',
  'xb-',
  '248791532604',
  '-',
  '1379246810357',
  '-',
  'Vq3Lr8Tn2Wm6Xk9Yb4Zc7Hd1',
);
export const fakeOpenAiKey = join('sk', '-', 'Qw3Er5Ty7Ui9Op1As3Df', 'T3Blbk', 'FJ', 'Mn2Bv4Cx6Zl8Kj0Hg2Fd');

/**
 * A private key block: the armour around base64 that decodes as a DER sequence (`MI...`), 600 bytes
 * of a fixed pattern, not a key anyone holds.
 */
export function fakePrivateKey(seed = 7): string {
  const der = Buffer.alloc(600);
  der[0] = 0x30;
  der[1] = 0x82;
  for (let i = 2; i < der.length; i += 1) der[i] = (i * 7919 + seed * 104729) % 256;
  const body = (der.toString('base64').match(/.{1,64}/g) ?? []).join('\n');
  const armour = (edge: string) => join('-----', edge, ' RSA PRI', 'VATE KEY-----');
  return `${armour('BEGIN')}\n${body}\n${armour('END')}\n`;
}

/** The base64 body of {@link fakePrivateKey}, the part of it that is secret. */
export function privateKeyBody(key: string): string {
  return key.split('\n').slice(1, -2).join('\n');
}
