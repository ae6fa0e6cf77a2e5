// What the AWeber Polling Trigger makes of each answer it reads (nodes/AWeberListTrigger/streams.ts): which entries are
// events, how far ahead of AWeber's Date an entry may be, which Date of a poll's answers it believes, where a page ends.
// docs/triggers.md, "AWeber Polling Trigger".
import { useTestbed } from '../harness/aweber';
import { call, listPath } from '../sandbox/api-test-client';
import type { AnswerRewrite } from '../sandbox/types';
import { addSubscribers, emailsOf, loggedDuring, watchingTrigger, triggerWarning, UNLIMITED } from './poll-trigger.helpers';

const MINUTE = 60_000;
/** How far AWeber's clock may be off (MAX_CLOCK_SKEW_MS): exactly at it, and a second (AWeber's precision) beyond. */
const SKEW = 10 * MINUTE;
const AT_AND_BEYOND_SKEW: Array<[string, number]> = [
	['exactly 10 minutes', SKEW],
	['10 minutes and a second', SKEW + 1000],
];
/** A time as AWeber writes it in `subscribed_at`. */
const aweberTime = (ms: number) => new Date(ms).toISOString().replace('.000Z', '+00:00');

describe("AWeber Polling Trigger: what it makes of AWeber's answers", () => {
	const bed = useTestbed({ rateLimit: UNLIMITED, credential: { rateLimitRequests: 1_000_000 } });

	const subscribersPath = (listId: number) => `/1.0${listPath(bed.sandbox, listId)}/subscribers`;
	const apiCalls = () => bed.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/'));
	/** A whole second of the sandbox's clock, a minute ahead: an AWeber Date this machine's clock does not trail. */
	const aweberNow = () => Math.floor(bed.sandbox.clock.now() / 1000) * 1000 + MINUTE;
	const rewriteNext = (listId: number, rewrite: AnswerRewrite, query?: Record<string, string>) =>
		bed.sandbox.faults.next(1, 'rewrite', { method: 'GET', pathPrefix: subscribersPath(listId), rewrite, query });

	/** The id AWeber gives the subscriber with this address. */
	async function subscriberId(listId: number, email: string): Promise<number> {
		const token = bed.sandbox.issueToken().access_token;
		const found = await call(bed.sandbox, 'GET', `${listPath(bed.sandbox, listId)}/subscribers`, { token, query: { 'ws.op': 'find', email } });
		return found.json().entries[0].id as number;
	}

	it.each([
		['without its subscribed_at', { subscribed_at: null }],
		['without its id', { id: null }],
	])('an entry %s is no event yet: it fires on the next poll, once AWeber answers it whole', async (_name, firstEntry) => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = await watchingTrigger(bed, empty);
		const added = await addSubscribers(bed, empty, 3, 'partial', 1000);
		rewriteNext(empty, { firstEntry });
		expect(emailsOf(await runner.poll())).toEqual(added.slice(0, 2));
		expect(emailsOf(await runner.poll())).toEqual(added.slice(2));
		expect(await runner.poll()).toBeNull();
	});

	it('an entry whose id AWeber gives as text fires, and is the same subscriber when the id comes as a number', async () => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = await watchingTrigger(bed, empty);
		const added = await addSubscribers(bed, empty, 3, 'text-id', 1000);
		rewriteNext(empty, { firstEntry: { id: String(await subscriberId(empty, added[2])) } });
		expect(emailsOf(await runner.poll())).toEqual(added);
		expect(await runner.poll()).toBeNull();
	});

	it.each(AT_AND_BEYOND_SKEW)("an entry %s ahead of AWeber's Date fires only within the 10 minutes; beyond, it is left out and logged", async (_name, ahead) => {
		const fires = ahead <= SKEW;
		const { empty } = bed.sandbox.seed.lists;
		const runner = await watchingTrigger(bed, empty);
		const added = await addSubscribers(bed, empty, 3, 'ahead', 1000);
		const dated = aweberNow();
		const newest = await subscriberId(empty, added[2]);
		rewriteNext(empty, { date: new Date(dated).toUTCString(), firstEntry: { subscribed_at: aweberTime(dated + ahead) } });

		const lines = await loggedDuring(async () => expect(emailsOf(await runner.poll())).toEqual(fires ? added : added.slice(0, 2)));
		const ignored = `ignored entry ${newest}: its subscribed_at (${aweberTime(dated + ahead)}) is ahead of AWeber's clock (${new Date(dated).toISOString()})`;
		expect(lines).toEqual(fires ? [] : [triggerWarning(runner, ignored)]);
	});

	it.each(AT_AND_BEYOND_SKEW)("a page's Date %s behind the poll's first page is set aside only beyond the 10 minutes, and logged", async (_name, behind) => {
		const setAside = behind > SKEW;
		const { empty } = bed.sandbox.seed.lists;
		const runner = await watchingTrigger(bed, empty);
		// Pages of 20: 25 new subscribers take two reads (the second from entry 10: pages overlap by 10).
		bed.sandbox.pages.cap(20);
		const added = await addSubscribers(bed, empty, 25, 'two-pages');
		bed.sandbox.clearRequests();
		const first = aweberNow() + 60 * MINUTE;
		rewriteNext(empty, { date: new Date(first).toUTCString() }, { 'ws.start': '0' });
		rewriteNext(empty, { date: new Date(first - behind).toUTCString() }, { 'ws.start': '10' });

		const lines = await loggedDuring(async () => expect(emailsOf(await runner.poll())).toEqual([...added].sort()));
		expect(apiCalls().map((entry) => entry.query['ws.start'])).toEqual(['0', '10']);
		const setAsideDate = `set aside the date of AWeber's answer (${new Date(first - behind).toISOString()}): it is behind this machine's clock and earlier answers (${new Date(first).toISOString()})`;
		expect(lines).toEqual(setAside ? [triggerWarning(runner, setAsideDate)] : []);
	});

	it.each([
		['that has no next page link', undefined],
		['whose next page link is empty', ''],
	])('a page %s is the last: a poll of a list empty at activation reads it once', async (_name, nextCollectionLink) => {
		const { empty } = bed.sandbox.seed.lists;
		const runner = await watchingTrigger(bed, empty);
		const added = await addSubscribers(bed, empty, 3, 'last-page');
		bed.sandbox.clearRequests();
		if (nextCollectionLink !== undefined) bed.sandbox.faults.next(20, 'rewrite', { method: 'GET', pathPrefix: subscribersPath(empty), rewrite: { nextCollectionLink } });
		expect(emailsOf(await runner.poll())).toEqual(added);
		expect(apiCalls()).toHaveLength(1);
	});
});
