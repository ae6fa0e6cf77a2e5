// Progress notices (a lockout being waited out, the share of a busy account) go to n8n's log, and in a manual run
// also to the editor's browser console, where the user running the workflow by hand sees them; a production run
// sends nothing to an editor (nodes/shared/waits.ts).
import type { WorkflowExecuteMode } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { recordNodeLogs } from '../harness/nodeLogs';
import { byId } from './email-nodes.helpers';

const LOCKOUT_NOTICE = /AWeber answered "Rate Limit Error" \(another app or workflow may be using this account's budget\); waiting .* for the lockout to end, then retrying/;

describe('Notices in the editor', () => {
	const bed = useTestbed();

	const getAccountDuringLockout = async (mode: WorkflowExecuteMode) => {
		bed.sandbox.faults.forceRateLimitLockout();
		const console: unknown[][] = [];
		const logs = recordNodeLogs();
		const result = await bed.harness
			.runNode(
				{ type: 'aWeberAccount', credentialId: bed.credentialId, parameters: { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) } },
				// Four items refused in the same lockout: one notice for the lockout, not one per request.
				[{}, {}, {}, {}],
				{ mode, onEditorConsole: (messages) => console.push(messages) },
			)
			.finally(logs.restore);
		expect(result.status).toBe('success');
		return { console, logged: logs.lines.filter((line) => LOCKOUT_NOTICE.test(line.message)) };
	};

	// First: the lockouts below leave the credential's pacing changed for a while.
	it('a run that met no lockout and no waiting shows nothing in the console and logs no notice', async () => {
		const console: unknown[][] = [];
		const logs = recordNodeLogs();
		const result = await bed.harness
			.runNode(
				{ type: 'aWeberAccount', credentialId: bed.credentialId, parameters: { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) } },
				[{}, {}],
				{ mode: 'manual', onEditorConsole: (messages) => console.push(messages) },
			)
			.finally(logs.restore);
		expect(result.status).toBe('success');
		expect(console).toEqual([]);
		expect(logs.lines.filter((line) => /^AWeber: /.test(line.message))).toEqual([]);
	});

	it('a manual run shows the lockout notice in the browser console, naming the node, and logs it', async () => {
		const { console, logged } = await getAccountDuringLockout('manual');
		// One message per notice, each the node's name and the notice as logged.
		expect(console.every((messages) => messages.length === 1 && /^Node Under Test: AWeber/.test(String(messages[0])))).toBe(true);
		expect(console.filter(([message]) => LOCKOUT_NOTICE.test(String(message)))).toEqual([[expect.stringMatching(new RegExp(`^Node Under Test: ${LOCKOUT_NOTICE.source}`))]]);
		expect(logged).toHaveLength(1);
	});

	it('a production run only logs it', async () => {
		const { console, logged } = await getAccountDuringLockout('trigger');
		expect(console).toEqual([]);
		expect(logged).toHaveLength(1);
	});
});
