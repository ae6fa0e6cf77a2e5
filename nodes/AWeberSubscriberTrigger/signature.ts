import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** Why a signed delivery was refused; shown in the 401 answer and the log, never the key or the expected digest. */
export type SignatureRefusal =
	| 'missing AWeber-Signature header'
	| 'malformed AWeber-Signature header'
	| 'missing or unreadable Date header'
	| 'signature does not match'
	| 'Date header outside the accepted window';

export interface SignedDelivery {
	/** Value of the `AWeber-Signature` header: `sha256=<hex>`. */
	signature: string | undefined;
	/** Value of the `Date` header, exactly as received. */
	date: string | undefined;
	/** The body bytes exactly as received. */
	rawBody: Buffer;
}

const SIGNATURE_HEADER = /^sha256=([0-9a-fA-F]{64})$/;

/** Python's str.rstrip() without arguments, as AWeber documents it: space, \t, \n, \v, \f, \r. */
const TRAILING_WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d]);

function rstrip(bytes: Buffer): Buffer {
	let end = bytes.length;
	while (end > 0 && TRAILING_WHITESPACE.has(bytes[end - 1])) end--;
	return bytes.subarray(0, end);
}

/**
 * AWeber's signature: HMAC-SHA256 over rstrip("date:" + Date + "\n" + body), hex encoded. The key is the
 * verification key string's UTF-8 bytes, as pasted (AWeber calls it base64 but hands it out as text to paste;
 * see docs/triggers.md and docs/aweber-behaviour.md). Computed over the received bytes, never over re-serialized JSON.
 */
export function aweberSignatureDigest(verificationKey: string, date: string, rawBody: Buffer): Buffer {
	return createHmac('sha256', Buffer.from(verificationKey, 'utf8')).update(signedContent(date, rawBody)).digest();
}

function signedContent(date: string, rawBody: Buffer): Buffer {
	return rstrip(Buffer.concat([Buffer.from(`date:${date}\n`, 'utf8'), rawBody]));
}

/**
 * SHA-256 (hex) of exactly what the signature covers. Every copy of one signed delivery has the same, whatever its
 * AWeber-Delivery-ID header, its signature's hex case or trailing whitespace added to its body: the replay key.
 */
export function signedContentDigest(date: string, rawBody: Buffer): string {
	return createHash('sha256').update(signedContent(date, rawBody)).digest('hex');
}

/**
 * Checks a delivery's signature in constant time, then that its Date lies within `windowMs` of `now`
 * (a captured delivery replayed later carries its old Date, which the signature covers).
 */
export function checkDeliverySignature(
	delivery: SignedDelivery,
	verificationKey: string,
	options: { now: number; windowMs: number },
): SignatureRefusal | undefined {
	// Header values arrive without surrounding whitespace (HTTP parsers strip it), so an empty value is the only blank one.
	if (delivery.signature === undefined || delivery.signature === '') return 'missing AWeber-Signature header';
	const match = SIGNATURE_HEADER.exec(delivery.signature);
	if (match === null) return 'malformed AWeber-Signature header';
	const sentAt = delivery.date === undefined ? Number.NaN : Date.parse(delivery.date);
	if (delivery.date === undefined || Number.isNaN(sentAt)) return 'missing or unreadable Date header';
	const expected = aweberSignatureDigest(verificationKey, delivery.date, delivery.rawBody);
	if (!timingSafeEqual(Buffer.from(match[1], 'hex'), expected)) return 'signature does not match';
	if (Math.abs(options.now - sentAt) > options.windowMs) return 'Date header outside the accepted window';
	return undefined;
}
