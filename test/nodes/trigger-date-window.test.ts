// The AWeber Trigger's Date window to the millisecond (the node tests use the real clock, which cannot hit an edge):
// a delivery dated exactly the window away from now, before or after, is accepted; a millisecond more is refused.
import { aweberSignatureDigest, checkDeliverySignature } from '../../nodes/AWeberSubscriberTrigger/signature';

const KEY = 'window-test-key';
const DATE = 'Wed, 25 Nov 2026 12:00:00 GMT';
const BODY = Buffer.from('{"events":[]}');
const delivery = { signature: `sha256=${aweberSignatureDigest(KEY, DATE, BODY).toString('hex')}`, date: DATE, rawBody: BODY };
const sentAt = Date.parse(DATE);
const windowMs = 5 * 60_000;

describe('the Date window of a signed delivery', () => {
	it.each([
		['exactly the window after it was sent', sentAt + windowMs, undefined],
		['exactly the window before it was sent', sentAt - windowMs, undefined],
		['a millisecond later', sentAt + windowMs + 1, 'Date header outside the accepted window'],
		['a millisecond earlier', sentAt - windowMs - 1, 'Date header outside the accepted window'],
	])('checked %s', (_when, now, refusal) => {
		expect(checkDeliverySignature(delivery, KEY, { now, windowMs })).toBe(refusal);
	});
});
