// Section 5 of bench/RESULTS.md and its targets: the list sync against Create or Update for every row.
import type { ListSyncSummary } from './listSync';
import { round } from './lib';

type Targets = Record<string, { target: string; value: string; met: boolean | null }>;

export const LIST_SYNC_HEADER = ['Keep a list in sync', 'rows', 'AWeber calls', 'AWeber minutes', 'lost', 'wrong', 'wall (n8n)'];

export function listSyncRows(sync: ListSyncSummary): string[][] {
	const kinds = (byKind: Record<string, number>) => Object.entries(byKind).map(([kind, count]) => `${count} ${kind}`).join(', ');
	const { perRowMeasured: row, perRowScaled: scaled } = sync;
	return [
		[
			'The example: Get Many (Return All, Shape for Comparison), Compare Datasets, Create / Update / Unsubscribe the differences',
			String(sync.sync.rows),
			`${sync.sync.calls} (${kinds(sync.sync.callsByKind)})`,
			String(sync.sync.aweberMinutes),
			String(sync.sync.lost),
			String(sync.sync.wrong),
			`${sync.sync.wallSeconds} s`,
		],
		[
			`Create or Update, Output "Request Summary", every row: measured on ${row.rows} rows`,
			String(row.rows),
			`${row.calls} (${kinds(row.callsByKind)})`,
			String(row.aweberMinutes),
			String(row.lost),
			String(row.wrong),
			`${row.wallSeconds} s`,
		],
		[`the same, scaled to ${scaled.rows} rows (x ${round(scaled.rows / row.rows, 2)})`, String(scaled.rows), String(scaled.calls), String(scaled.aweberMinutes), '', '', ''],
	];
}

export function listSyncTargets(sync: ListSyncSummary): Targets {
	const ratio = round(sync.sync.calls / sync.minimumCalls, 2);
	return {
		'listSync.calls': { target: `<= 1.05 x ${sync.minimumCalls} (reads + one write per difference)`, value: `${sync.sync.calls} = ${ratio}x`, met: ratio <= 1.05 },
		'listSync.aweberMinutes': {
			target: `< 3 (per row: ${sync.perRowScaled.aweberMinutes})`,
			value: String(sync.sync.aweberMinutes),
			met: sync.sync.aweberMinutes < 3,
		},
		'listSync.lost': { target: '0', value: String(sync.sync.lost), met: sync.sync.lost === 0 },
		'listSync.wrong': { target: '0', value: String(sync.sync.wrong), met: sync.sync.wrong === 0 },
	};
}

export function listSyncMarkdown(sync: ListSyncSummary | undefined, markdownTable: (header: string[], rows: string[][]) => string, run?: string): string {
	if (!sync) return '';
	const s = sync.settings;
	const wrongExamples = sync.perRowMeasured.wrongExamples.map((entry) => `${entry.email} ${entry.field}: source ${JSON.stringify(entry.expected)}, list ${JSON.stringify(entry.stored)}`);
	return `
## 5. Keep a list in sync (a list of ${s.size}; the source: ${s.changed} changed, ${s.added} new, ${s.removed} removed)

The "Keep a list in sync" example (\`examples/keep-list-in-sync.json\`, docs/sync.md) in the n8n harness, its Unsubscribe node switched on, against the sandbox in its own process with its clock at ${s.timeScale}x; then, on the same list freshly seeded, Create or Update with Output "Request Summary" for the first ${s.baselineRows} rows of the same source, scaled to all ${sync.perRowScaled.rows} (the per-row run's calls and time grow in proportion to its rows: one call each, ${s.timeScale === 10 ? '120 per 6 s' : 'at the limit'}).${run ? ` ${run}` : ''}

${markdownTable(LIST_SYNC_HEADER, listSyncRows(sync))}

- Least possible: ${sync.minimumCalls} calls (${Math.ceil(s.size / 100)} pages of the list, one write per difference). The example's Update nodes (changed contacts, and removed ones set to unsubscribed) give every custom field with **Replace All Custom Fields** on, so each is one PATCH without reading the subscriber first; each of the three writing nodes reads the list's custom field names once per run.
- AWeber minutes: the time on AWeber's clock from the first to the last call of the reading (the pages), plus the same for the writing (the adds and updates; the one-off reads of the custom field names and of the list for the guard are counted in the calls) (n8n's own work in between, Compare Datasets over ${s.size} x ${s.size} items, sends nothing). Wall: the real time of the whole run in n8n.
- Lost: contacts of the source with no subscriber afterwards. Wrong: subscribers whose name, custom fields, tags (or, for the ones no longer in the source, status) differ from the source, checked field by field by reading the list through the API afterwards.
- Every 7th address of the source is in capitals: AWeber matches addresses ignoring case, so neither run writes for that.${
		sync.perRowMeasured.wrong > 0
			? `\n- The per-row run's wrong contacts: Create or Update appends tags and leaves an emptied custom field as it was (AWeber's update_existing), so a tag removed or a field emptied in the source stays on the list: ${wrongExamples.join('; ')}.`
			: ''
	}
`;
}
