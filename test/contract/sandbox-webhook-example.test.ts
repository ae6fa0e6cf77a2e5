// The copy-paste signed delivery of docs/sandbox.md ("Try the AWeber Webhook Trigger by hand"), run as written against the
// AWeber Webhook Trigger with the key `npm start` gives the sandbox credential: the AWeber Webhook Trigger accepts it.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

import { useTestbed } from '../harness/aweber';
import { startWebhookReceiver, type WebhookReceiver } from '../harness/webhook';

const projectRoot = path.resolve(__dirname, '../..');
const sandboxDocs = readFileSync(path.join(projectRoot, 'docs/sandbox.md'), 'utf8');

/** The key the start script registers with the sandbox and puts in the "AWeber (sandbox)" credential. */
function startScriptKey(): string {
	const provision = readFileSync(path.join(projectRoot, 'scripts/start/provision.ts'), 'utf8');
	const key = /const WEBHOOK_VERIFICATION_KEY = '([^']+)'/.exec(provision)?.[1];
	if (!key) throw new Error('scripts/start/provision.ts no longer names WEBHOOK_VERIFICATION_KEY: point this test at the key npm start uses');
	return key;
}

/** The `node -e '…'` command of the section, as a user copies it. */
function documentedCommand(): string {
	const section = sandboxDocs.split('### Try the AWeber Webhook Trigger by hand')[1] ?? '';
	const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
	if (!block) throw new Error('docs/sandbox.md has no example under "Try the AWeber Webhook Trigger by hand"');
	return block
		.split('\n')
		.filter((line) => !line.startsWith('export AWEBER_TRIGGER_URL='))
		.join('\n');
}

describe('The signed delivery example of docs/sandbox.md', () => {
	const key = startScriptKey();
	const bed = useTestbed({ timeScale: 1, credential: { webhookVerificationSecret: key } });
	let receiver: WebhookReceiver | undefined;
	afterEach(async () => await receiver?.close());

	it('names the key npm start uses', () => {
		expect(sandboxDocs).toContain(`verification key **\`${key}\`**`);
		expect(documentedCommand()).toContain(`const key = "${key}";`);
	});

	it('is accepted by the AWeber Webhook Trigger with the sandbox credential, and starts one run', async () => {
		// The credential as npm start makes it: the sandbox's confidential app and the start script's key.
		const credentialId = bed.connect({ webhookVerificationSecret: key });
		receiver = await startWebhookReceiver(bed.harness, {
			type: 'aWeberSubscriberTrigger',
			credentialId,
			parameters: { events: ['subscriber.added', 'subscriber.subscribed', 'subscriber.unsubscribed'] },
		});
		const { stdout } = await promisify(execFile)('bash', ['-c', documentedCommand()], {
			env: { ...process.env, AWEBER_TRIGGER_URL: receiver.url },
			timeout: 30_000,
		});
		expect(stdout.trim()).toBe('200 {"received":true,"events":1}');
		expect(receiver.executions()).toEqual([
			[expect.objectContaining({ event: 'subscriber.added', verified: true, subscriber: expect.objectContaining({ email: 'by.hand@example.com' }) })],
		]);
	});
});
