// Section 5 of `npm run bench`: keep a list of 10,000 in sync with a source that changed a little, with the
// "Keep a list in sync" example (read once, Compare Datasets, write the differences), against Create or Update
// with Output "Request Summary" for every row of the source (docs/sync.md).
import type { IDataObject } from 'n8n-workflow';
import { request } from 'undici';

import { PACKAGE_PREFIX, type N8nHarness } from '../test/harness';
import { checkListAgainstSource, readList, runSync, type SourceContact, type StoredSubscriber, type SyncCheck } from '../test/harness/listSync';
import type { RequestLogEntry } from '../test/sandbox/types';
import { log, round } from './lib';
import { RemoteSandbox } from './remoteSandbox';

export interface ListSyncSettings {
	size: number;
	changed: number;
	added: number;
	removed: number;
	/** Rows of the per-row baseline actually run; its calls and time are scaled to the whole source. */
	baselineRows: number;
	timeScale: number;
}

export interface SyncRunFigures {
	rows: number;
	calls: number;
	callsByKind: Record<string, number>;
	/** Minutes of AWeber's clock during which the run sent requests (from its first to its last call, per phase). */
	aweberMinutes: number;
	wallSeconds: number;
	lost: number;
	wrong: number;
	wrongExamples: SyncCheck['wrong'];
	error?: string;
}

export interface ListSyncSummary {
	settings: ListSyncSettings;
	/** The least any sync can send: the list's pages, plus one write per new, changed and removed contact. */
	minimumCalls: number;
	sync: SyncRunFigures;
	/** Create or Update (Request Summary) for every row: measured on `baselineRows` rows. */
	perRowMeasured: SyncRunFigures;
	/** The measured per-row run scaled to the whole source (calls and minutes x size / rows). */
	perRowScaled: { rows: number; calls: number; aweberMinutes: number };
}

/** Where the changed contacts are in the list: every `step`-th after the removed ones. */
function changedIndexes(settings: ListSyncSettings): number[] {
	const step = Math.floor((settings.size - settings.removed) / settings.changed);
	return Array.from({ length: settings.changed }, (_, change) => settings.removed + change * step);
}

/** The kinds of change a CRM makes, in turn: a field set, a field emptied, a tag added, a tag removed, a new name. */
const CHANGE_KINDS = 5;

/** The bench's source: the list less its first `removed`, `changed` of the rest changed in turn, `added` new. */
export function benchSource(list: StoredSubscriber[], settings: ListSyncSettings): SourceContact[] {
	const changes = new Map(changedIndexes(settings).map((listIndex, change) => [listIndex, change % CHANGE_KINDS]));
	const contacts = list.slice(settings.removed).map((subscriber, keptIndex): SourceContact => {
		const [firstName, ...rest] = (subscriber.name ?? '').split(' ');
		const contact: SourceContact = {
			// Every 7th address in capitals: AWeber matches addresses ignoring case, so this is no change.
			email: keptIndex % 7 === 0 ? subscriber.email.toUpperCase() : subscriber.email,
			firstName,
			lastName: rest.join(' '),
			company: subscriber.custom_fields.Company ?? '',
			plan: subscriber.custom_fields.Plan ?? '',
			tags: [...subscriber.tags],
		};
		switch (changes.get(keptIndex + settings.removed)) {
			case undefined:
				return contact;
			case 0:
				return { ...contact, plan: 'pro' };
			case 1:
				return { ...contact, company: '' };
			case 2:
				return { ...contact, tags: [...contact.tags, 'vip'] };
			case 3:
				return { ...contact, tags: contact.tags.filter((tag) => tag !== 'bulk') };
			default:
				return { ...contact, lastName: `${contact.lastName} Jr` };
		}
	});
	for (let index = 0; index < settings.added; index++) {
		contacts.push({ email: `new.${index}@example.com`, firstName: 'New', lastName: `Contact ${index}`, company: 'New Co', plan: 'free', tags: ['new'] });
	}
	return contacts;
}

/**
 * The bulk list gets the custom fields the example maps (Company, Plan), and a company for the subscribers whose
 * company the source empties and for some others; then a fresh rate-limit window, so these calls cost the runs nothing.
 */
async function prepareList(sandbox: RemoteSandbox, token: string, listPath: string, settings: ListSyncSettings): Promise<void> {
	const send = async (method: 'POST' | 'PATCH', path: string, contentType: string, body: string) => {
		const answer = await request(`${sandbox.apiBaseUrl}${listPath}${path}`, {
			method,
			headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
			body,
		});
		await answer.body.text();
		if (answer.statusCode >= 300) throw new Error(`${method} ${path} answered ${answer.statusCode}`);
	};
	for (const name of ['Company', 'Plan']) {
		await send('POST', '/custom_fields', 'application/x-www-form-urlencoded', new URLSearchParams({ 'ws.op': 'create', name }).toString());
	}
	const emptied = changedIndexes(settings).filter((_, change) => change % CHANGE_KINDS === 1);
	const spacing = Math.floor((settings.size - settings.removed) / 20);
	const others = Array.from({ length: 20 }, (_, index) => settings.removed + 1 + index * spacing);
	for (const listIndex of [...emptied, ...others]) {
		const email = `bulk.${String(listIndex + 1).padStart(5, '0')}@example.com`;
		const body = JSON.stringify({ custom_fields: { Company: `Company ${listIndex}`, Plan: 'free' } });
		await send('PATCH', `/subscribers?subscriber_email=${encodeURIComponent(email)}`, 'application/json', body);
	}
	await sandbox.advanceClock(120);
}

function kindOf(entry: RequestLogEntry, listPath: string): string {
	if (entry.method === 'GET' && entry.path === `${listPath}/subscribers`) return entry.query['ws.op'] === 'find' ? 'find' : 'read page';
	if (entry.method === 'GET' && entry.path === `${listPath}/custom_fields`) return 'custom field names';
	return entry.method === 'POST' ? 'add' : entry.method === 'PATCH' ? 'update' : `${entry.method} other`;
}

/** AWeber minutes: from the first to the last call of each phase (reading, writing), on AWeber's clock. */
function aweberMinutes(calls: RequestLogEntry[], listPath: string, timeScale: number): number {
	const span = (entries: RequestLogEntry[]) =>
		entries.length === 0 ? 0 : Date.parse(entries[entries.length - 1].time) - Date.parse(entries[0].time);
	const reads = calls.filter((entry) => kindOf(entry, listPath) === 'read page');
	// The writes proper: a one-off read (the custom field names, the list for the unsubscribe guard) is counted in the
	// calls, not in a span; the source's shape reads its field names before n8n's own work, which sends nothing.
	const writes = calls.filter((entry) => ['add', 'update'].includes(kindOf(entry, listPath)));
	return round(((span(reads) + span(writes)) * timeScale) / 60_000, 2);
}

async function figures(
	sandbox: RemoteSandbox,
	listPath: string,
	run: () => Promise<{ status?: string; error?: Error }>,
	check: () => Promise<SyncCheck>,
	rows: number,
): Promise<SyncRunFigures> {
	await sandbox.clearRequests();
	const startedAt = Date.now();
	const result = await run();
	const wallSeconds = round((Date.now() - startedAt) / 1000, 1);
	const calls = (await sandbox.apiCalls()).sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
	const callsByKind: Record<string, number> = {};
	for (const entry of calls) callsByKind[kindOf(entry, listPath)] = (callsByKind[kindOf(entry, listPath)] ?? 0) + 1;
	await sandbox.advanceClock(120);
	const { lost, wrong } = await check();
	return {
		rows,
		calls: calls.length,
		callsByKind,
		aweberMinutes: aweberMinutes(calls, listPath, sandbox.timeScale),
		wallSeconds,
		lost: lost.length,
		wrong: new Set(wrong.map((entry) => entry.email)).size,
		wrongExamples: wrong.slice(0, 3),
		...(result.status === 'success' ? {} : { error: result.error?.message ?? String(result.status) }),
	};
}

export async function benchListSync(harness: N8nHarness, settings: ListSyncSettings): Promise<ListSyncSummary> {
	const sandbox = await RemoteSandbox.start({ timeScale: settings.timeScale, seedSize: settings.size });
	try {
		const prepare = async () => {
			await sandbox.reset();
			const token = (await sandbox.issueToken()).access_token;
			const listPath = `/1.0/accounts/${sandbox.seed.accountId}/lists/${sandbox.seed.lists.bulk}`;
			await prepareList(sandbox, token, listPath, settings);
			const before = await readList(sandbox.apiBaseUrl, token, sandbox.seed.accountId, sandbox.seed.lists.bulk);
			await sandbox.advanceClock(120);
			const credentialId = harness.addCredential(await sandbox.credentialData());
			const stored = async () => await readList(sandbox.apiBaseUrl, token, sandbox.seed.accountId, sandbox.seed.lists.bulk);
			return { listPath, before, credentialId, stored };
		};

		log(`list sync: a list of ${settings.size}, a source with ${settings.changed} changed, ${settings.added} new, ${settings.removed} removed`);
		const syncSide = await prepare();
		const source = benchSource(syncSide.before, settings);
		const syncOptions = { credentialId: syncSide.credentialId, accountId: sandbox.seed.accountId, listId: sandbox.seed.lists.bulk, unsubscribe: true };
		const sync = await figures(
			sandbox,
			syncSide.listPath,
			async () => await runSync(harness, source, syncOptions),
			async () => checkListAgainstSource(await syncSide.stored(), source, syncSide.before, { unsubscribeRemoved: true }),
			source.length,
		);
		log(`list sync: ${sync.calls} calls, ${sync.aweberMinutes} AWeber minutes, ${sync.lost} lost, ${sync.wrong} wrong`);

		log(`list sync baseline: Create or Update (Request Summary) for ${settings.baselineRows} rows of the source`);
		const rowSide = await prepare();
		const rows = benchSource(rowSide.before, settings).slice(0, settings.baselineRows);
		const perRowMeasured = await figures(
			sandbox,
			rowSide.listPath,
			async () => await harness.runNode(perRowUpsert(rowSide.credentialId, sandbox), rows as unknown as IDataObject[]),
			async () => checkListAgainstSource(await rowSide.stored(), rows, rowSide.before, { unsubscribeRemoved: false }),
			rows.length,
		);
		const scale = source.length / rows.length;
		log(`list sync baseline: ${perRowMeasured.calls} calls, ${perRowMeasured.aweberMinutes} AWeber minutes for ${rows.length} rows`);
		return {
			settings,
			minimumCalls: Math.ceil(settings.size / 100) + settings.changed + settings.added + settings.removed,
			sync,
			perRowMeasured,
			perRowScaled: { rows: source.length, calls: Math.round(perRowMeasured.calls * scale), aweberMinutes: round(perRowMeasured.aweberMinutes * scale, 1) },
		};
	} finally {
		await sandbox.stop();
	}
}

/** Create or Update with Output "Request Summary", the name, custom fields and tags of each row: one call per row. */
function perRowUpsert(credentialId: string, sandbox: RemoteSandbox) {
	return {
		type: `${PACKAGE_PREFIX}aWeberSubscriber`,
		credentialId,
		continueOnFail: true,
		parameters: {
			operation: 'upsert',
			accountId: { __rl: true, mode: 'id', value: String(sandbox.seed.accountId) },
			listId: { __rl: true, mode: 'id', value: String(sandbox.seed.lists.bulk) },
			email: '={{ $json.email }}',
			output: 'summary',
			additionalFields: {
				name: "={{ [$json.firstName, $json.lastName].filter(Boolean).join(' ') }}",
				tags: '={{ $json.tags }}',
				customFields: { field: [{ name: 'Company', value: '={{ $json.company }}' }, { name: 'Plan', value: '={{ $json.plan }}' }] },
			},
		},
	};
}
