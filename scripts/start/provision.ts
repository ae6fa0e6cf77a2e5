// Run by scripts/start.sh once n8n and the AWeber sandbox answer: the owner account, the "AWeber (sandbox)" credential
// connected through n8n's own OAuth flow, the example workflows (imported once), the sandbox's webhook to the
// published trigger example; then prints where everything is. Everything is idempotent: later starts only
// reconnect the credential (the sandbox keeps its tokens in memory) and re-register the webhook.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { AWEBER_SCOPES } from '../../credentials/AWeberOAuth2Api.credentials';
import type { AWeberSubscriberTrigger as AWeberSubscriberTriggerNode } from '../../nodes/AWeberSubscriberTrigger/AWeberSubscriberTrigger.node';
import { N8nRequestError, N8nSession } from './n8n-client';

// The build that n8n runs (start.sh builds first). Under tsx, `…/AWeberSubscriberTrigger.node` would resolve to the codex .json.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { AWeberSubscriberTrigger } = require('../../dist/nodes/AWeberSubscriberTrigger/AWeberSubscriberTrigger.node.js') as {
	AWeberSubscriberTrigger: typeof AWeberSubscriberTriggerNode;
};

const CREDENTIAL_TYPE = 'aWeberOAuth2Api';
const CREDENTIAL_NAME = 'AWeber (sandbox)';
/** Signs the sandbox's webhooks; the AWeber Webhook Trigger checks them with the same key from the credential. */
const WEBHOOK_VERIFICATION_KEY = 'sandbox-webhook-verification-key';
const AWEBER_TRIGGER_TYPE = 'n8n-nodes-aweber.aWeberSubscriberTrigger';
const FORM_TRIGGER_TYPE = 'n8n-nodes-base.formTrigger';
/** An AI agent example: it needs a model credential the user brings (docs/ai-agents.md). */
const CHAT_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.chatTrigger';
/** Examples published when imported: their triggers answer HTTP (a form, AWeber's webhooks), so they are ready to try. */
const PUBLISHED_ON_IMPORT = [FORM_TRIGGER_TYPE, AWEBER_TRIGGER_TYPE];
/** The sign-in on the sandbox's authorization page (test/sandbox/apps.ts). */
const SANDBOX_LOGIN = { username: 'sandbox', password: 'sandbox' };

interface Settings {
	n8nUrl: string;
	sandboxUrl: string;
	owner: { email: string; password: string };
	/** Where start.sh keeps its state (n8n's user folder). */
	stateFile: string;
	examplesDir: string;
}

/** What earlier starts did, so that a workflow the user deleted is not imported again. */
interface StartState {
	credentialId?: string;
	/** Example file name -> workflow id. */
	examples: Record<string, string>;
}

interface SandboxInfo {
	apiBaseUrl: string;
	authBaseUrl: string;
	apps: { confidential: { clientId: string; clientSecret: string } };
}

interface CredentialReference {
	id: string;
	name: string;
}

interface StoredCredential {
	id: string;
	name: string;
	type: string;
	data?: Record<string, unknown>;
}

interface WorkflowNode {
	name: string;
	type: string;
	webhookId?: string;
	parameters: Record<string, unknown>;
	credentials?: Record<string, CredentialReference>;
}

interface WorkflowFile {
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
}

interface StoredWorkflow extends WorkflowFile {
	id: string;
	versionId: string;
	activeVersionId?: string | null;
}

interface CredentialSetup {
	credential: StoredCredential;
	/** Still on the sandbox (managed by npm start), rather than switched to a real AWeber account. */
	onSandbox: boolean;
	/** The sandbox has another address than at the previous start (its default port was taken). */
	moved: boolean;
}

interface Example {
	workflow: StoredWorkflow;
	imported: boolean;
	published: boolean;
	note?: string;
}

function requiredEnv(name: string): string {
	const value = process.env[name];
	if (value === undefined || value === '') throw new Error(`${name} is not set (run this through scripts/start.sh)`);
	return value;
}

function settingsFromEnv(): Settings {
	return {
		n8nUrl: requiredEnv('START_N8N_URL').replace(/\/+$/, ''),
		sandboxUrl: requiredEnv('START_SANDBOX_URL').replace(/\/+$/, ''),
		owner: { email: requiredEnv('START_OWNER_EMAIL'), password: requiredEnv('START_OWNER_PASSWORD') },
		stateFile: requiredEnv('START_STATE_FILE'),
		examplesDir: requiredEnv('START_EXAMPLES_DIR'),
	};
}

function readState(file: string): StartState {
	if (!existsSync(file)) return { examples: {} };
	const state = JSON.parse(readFileSync(file, 'utf8')) as Partial<StartState>;
	return { credentialId: state.credentialId, examples: state.examples ?? {} };
}

async function sandboxInfo(sandboxUrl: string): Promise<SandboxInfo> {
	const response = await fetch(`${sandboxUrl}/__sandbox/`);
	if (!response.ok) throw new Error(`The sandbox at ${sandboxUrl} answered ${response.status}`);
	return (await response.json()) as SandboxInfo;
}

async function sandboxControl(sandboxUrl: string, route: string, body: unknown): Promise<void> {
	const response = await fetch(`${sandboxUrl}/__sandbox${route}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	if (!response.ok) throw new Error(`POST /__sandbox${route} answered ${response.status}: ${await response.text()}`);
}

/** A credential still on the sandbox points at a loopback address; once switched to AWeber, it is left alone. */
function pointsAtSandbox(credential: StoredCredential): boolean {
	const apiBaseUrl = String(credential.data?.apiBaseUrl ?? '');
	try {
		return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(apiBaseUrl).hostname);
	} catch {
		return false;
	}
}

/** The fields that tie the credential to this run's sandbox (its port may differ between starts). */
function sandboxFields(sandbox: SandboxInfo): Record<string, unknown> {
	return {
		grantType: 'authorizationCode',
		clientId: sandbox.apps.confidential.clientId,
		clientSecret: sandbox.apps.confidential.clientSecret,
		apiBaseUrl: sandbox.apiBaseUrl,
		authBaseUrl: sandbox.authBaseUrl,
		webhookVerificationSecret: WEBHOOK_VERIFICATION_KEY,
	};
}

/** The credential an earlier start created: by its recorded id, else by name; with its data (secrets redacted). */
async function findCredential(n8n: N8nSession, knownId: string | undefined): Promise<StoredCredential | undefined> {
	const read = async (id: string) => {
		try {
			return await n8n.rest<StoredCredential>('GET', `/credentials/${id}?includeData=true`);
		} catch (error) {
			if (error instanceof N8nRequestError && error.status === 404) return undefined;
			throw error;
		}
	};
	const known = knownId === undefined ? undefined : await read(knownId);
	if (known !== undefined) return known;
	const all = await n8n.rest<StoredCredential[]>('GET', '/credentials');
	const named = all.find((credential) => credential.type === CREDENTIAL_TYPE && credential.name === CREDENTIAL_NAME);
	return named === undefined ? undefined : await read(named.id);
}

/** Creates the credential, or points an existing sandbox one at this run's sandbox. */
async function ensureCredential(
	n8n: N8nSession,
	sandbox: SandboxInfo,
	state: StartState,
): Promise<CredentialSetup> {
	const existing = await findCredential(n8n, state.credentialId);
	if (existing === undefined) {
		const credential = await n8n.rest<StoredCredential>('POST', '/credentials', {
			name: CREDENTIAL_NAME,
			type: CREDENTIAL_TYPE,
			data: { ...sandboxFields(sandbox), scope: AWEBER_SCOPES.join(' ') },
		});
		return { credential, onSandbox: true, moved: false };
	}
	if (!pointsAtSandbox(existing)) return { credential: existing, onSandbox: false, moved: false };
	// n8n keeps redacted values (the secret) when they come back unchanged, and never takes oauthTokenData from here.
	const { oauthTokenData: _token, ...data } = existing.data ?? {};
	await n8n.rest('PATCH', `/credentials/${existing.id}`, {
		name: existing.name,
		type: CREDENTIAL_TYPE,
		data: { ...data, ...sandboxFields(sandbox) },
	});
	return { credential: existing, onSandbox: true, moved: existing.data?.apiBaseUrl !== sandbox.apiBaseUrl };
}

function decodeHtml(value: string): string {
	return value
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&');
}

/**
 * Connects the credential as a user would with "Connect my account": n8n's authorize URL, the sandbox's sign-in
 * form (approved), then n8n's callback with the owner's session, which exchanges the code and stores the tokens.
 */
async function connectCredential(n8n: N8nSession, sandbox: SandboxInfo, credentialId: string): Promise<void> {
	const authorizeUrl = await n8n.rest<string>('GET', `/oauth2-credential/auth?id=${credentialId}`);
	if (!authorizeUrl.startsWith(`${sandbox.authBaseUrl}/`)) throw new Error(`n8n sent the sign-in elsewhere: ${authorizeUrl}`);
	const page = await fetch(authorizeUrl);
	const html = await page.text();
	const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
	if (!page.ok || action === undefined) throw new Error(`The sandbox refused the authorization request (${page.status}): ${html.slice(0, 300)}`);

	const form = new URLSearchParams();
	for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) form.append(name, decodeHtml(value));
	form.append('username', SANDBOX_LOGIN.username);
	form.append('password', SANDBOX_LOGIN.password);
	form.append('decision', 'approve');
	const decision = await fetch(new URL(decodeHtml(action), authorizeUrl), { method: 'POST', body: form, redirect: 'manual' });
	const callback = decision.headers.get('location') ?? '';
	const callbackPrefix = `${n8n.baseUrl}/rest/oauth2-credential/callback?`;
	if (!callback.startsWith(callbackPrefix)) {
		throw new Error(`The sandbox did not send the sign-in back to n8n (${decision.status}, ${callback || 'no redirect'})`);
	}
	const result = await (await n8n.request('GET', callback.slice(n8n.baseUrl.length))).text();
	if (!result.includes("postMessage('success')")) {
		const reason = /<h4>([^<]*)/.exec(result)?.[1] ?? result.slice(0, 300);
		throw new Error(`n8n could not connect the credential: ${reason}`);
	}
}

function withCredential(nodes: WorkflowNode[], credential: CredentialReference): WorkflowNode[] {
	return nodes.map((node) =>
		node.credentials?.[CREDENTIAL_TYPE] === undefined
			? node
			: { ...node, credentials: { ...node.credentials, [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } } },
	);
}

async function getWorkflow(n8n: N8nSession, id: string): Promise<StoredWorkflow | undefined> {
	try {
		return await n8n.rest<StoredWorkflow>('GET', `/workflows/${id}`);
	} catch (error) {
		if (error instanceof N8nRequestError && (error.status === 404 || error.status === 403)) return undefined;
		throw error;
	}
}

/** Imports each example file once; a workflow deleted by the user stays deleted. */
async function importExamples(
	n8n: N8nSession,
	settings: Settings,
	state: StartState,
	credential: CredentialReference,
): Promise<Array<{ workflow: StoredWorkflow; imported: boolean }>> {
	const files = readdirSync(settings.examplesDir)
		.filter((file) => file.endsWith('.json'))
		.sort();
	const existing = await n8n.rest<Array<{ id: string; name: string }>>('GET', '/workflows');
	const examples: Array<{ workflow: StoredWorkflow; imported: boolean }> = [];
	for (const file of files) {
		const example = JSON.parse(readFileSync(path.join(settings.examplesDir, file), 'utf8')) as WorkflowFile;
		// An earlier start imported it (the state file may be gone: then its name tells).
		const knownId = state.examples[file] ?? existing.find((workflow) => workflow.name === example.name)?.id;
		if (knownId !== undefined) {
			state.examples[file] = knownId;
			const workflow = await getWorkflow(n8n, knownId);
			if (workflow !== undefined) examples.push({ workflow, imported: false });
			continue;
		}
		const workflow = await n8n.rest<StoredWorkflow>('POST', '/workflows', {
			name: example.name,
			nodes: withCredential(example.nodes, credential),
			connections: example.connections,
			settings: example.settings ?? {},
		});
		state.examples[file] = workflow.id;
		examples.push({ workflow, imported: true });
	}
	return examples;
}

function hasNode(workflow: WorkflowFile, types: string[]): boolean {
	return workflow.nodes.some((node) => types.includes(node.type));
}

/** How long the nodes keep a credential's API base URL and rate limit (nodes/shared/accountSettings.ts), plus a margin. */
const NODE_SETTINGS_CACHE_MS = 1_500;

/**
 * Publishes new examples whose trigger answers HTTP. A published AWeber Webhook Trigger is published again on later
 * starts: n8n activated it at start-up with the previous sandbox's token, which this sandbox does not know.
 */
async function publishExamples(
	n8n: N8nSession,
	examples: Array<{ workflow: StoredWorkflow; imported: boolean }>,
	credential: CredentialSetup,
): Promise<Example[]> {
	const isPublished = (workflow: StoredWorkflow) => typeof workflow.activeVersionId === 'string' && workflow.activeVersionId !== '';
	const republish = (workflow: StoredWorkflow) =>
		isPublished(workflow) && credential.onSandbox && hasNode(workflow, [AWEBER_TRIGGER_TYPE]);
	if (credential.moved && examples.some(({ workflow, imported }) => !imported && republish(workflow))) {
		// n8n's start-up activation read the sandbox's previous address, and the nodes keep it for a while.
		await new Promise((resolve) => setTimeout(resolve, NODE_SETTINGS_CACHE_MS));
	}
	const results: Example[] = [];
	for (const { workflow, imported } of examples) {
		const published = isPublished(workflow);
		if (!(imported ? hasNode(workflow, PUBLISHED_ON_IMPORT) : republish(workflow))) {
			results.push({ workflow, imported, published });
			continue;
		}
		try {
			await n8n.rest('POST', `/workflows/${workflow.id}/activate`, { versionId: published ? workflow.activeVersionId : workflow.versionId });
			results.push({ workflow, imported, published: true });
		} catch (error) {
			results.push({ workflow, imported, published: false, note: `could not publish it (publish it in the editor): ${(error as Error).message}` });
		}
	}
	return results;
}

function webhookUrl(n8nUrl: string, node: WorkflowNode): string {
	const [webhook] = new AWeberSubscriberTrigger().description.webhooks ?? [];
	return `${n8nUrl}/webhook/${node.webhookId}/${webhook.path}`;
}

function formUrl(n8nUrl: string, node: WorkflowNode): string {
	const options = (node.parameters.options ?? {}) as { path?: string };
	return `${n8nUrl}/form/${options.path || node.webhookId}`;
}

/** AWeber has no webhook API (a customer pastes the URL in AWeber); the sandbox's control plane stands in for that. */
async function registerSandboxWebhooks(settings: Settings, examples: Example[]): Promise<void> {
	for (const example of examples) {
		if (!example.published) continue;
		for (const node of example.workflow.nodes.filter((candidate) => candidate.type === AWEBER_TRIGGER_TYPE)) {
			const callbackUrl = webhookUrl(settings.n8nUrl, node);
			await sandboxControl(settings.sandboxUrl, '/webhooks', { callbackUrl, verificationKey: WEBHOOK_VERIFICATION_KEY });
			example.note = `published; the sandbox sends its webhooks to ${callbackUrl}`;
		}
	}
}

function describe(settings: Settings, example: Example): string {
	if (example.note !== undefined) return example.note;
	const form = example.workflow.nodes.find((node) => node.type === FORM_TRIGGER_TYPE);
	if (example.published && form !== undefined) return `published; sign-up form: ${formUrl(settings.n8nUrl, form)}`;
	if (hasNode(example.workflow, [CHAT_TRIGGER_TYPE])) return 'add a model credential to its chat model node, then open the chat';
	return example.published ? 'published' : 'open it and click "Execute workflow"';
}

function printSummary(
	settings: Settings,
	sandbox: SandboxInfo,
	credential: CredentialSetup,
	examples: Example[],
): void {
	const credentialLine = credential.onSandbox
		? `"${credential.credential.name}", connected to the AWeber sandbox at ${settings.sandboxUrl}`
		: `"${credential.credential.name}" points at ${String(credential.credential.data?.apiBaseUrl)}: left as you set it`;
	const lines = [
		'',
		'n8n is running with the AWeber nodes.',
		'',
		`  Editor:      ${settings.n8nUrl}`,
		`  Log in as:   ${settings.owner.email} / ${settings.owner.password}`,
		`  Credential:  ${credentialLine}`,
		'  Example workflows:',
		...examples.flatMap((example) => [
			`    ${example.workflow.name}${example.imported ? ' (new)' : ''}`,
			`      ${settings.n8nUrl}/workflow/${example.workflow.id}  ${describe(settings, example)}`,
		]),
		`  AWeber sandbox: ${settings.sandboxUrl} (control plane: ${settings.sandboxUrl}/__sandbox/; OAuth sign-in: ${SANDBOX_LOGIN.username} / ${SANDBOX_LOGIN.password})`,
		// What a signed delivery to the webhook example needs (docs/sandbox.md): the sandbox's values, never a real app's.
		...(credential.onSandbox
			? [`  Sandbox app (for webhooks): client ID ${sandbox.apps.confidential.clientId}, webhook verification key ${WEBHOOK_VERIFICATION_KEY}`]
			: []),
		'  Use your real AWeber account instead: docs/getting-started.md',
		'',
	];
	process.stdout.write(`${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
	const settings = settingsFromEnv();
	const n8n = new N8nSession(settings.n8nUrl);
	const freshDatabase = await n8n.setUpOwner(settings.owner);
	try {
		await n8n.logIn(settings.owner);
	} catch (error) {
		if (error instanceof N8nRequestError && error.status === 401) {
			throw new Error(`n8n refused the login ${settings.owner.email}: set N8N_OWNER_EMAIL and N8N_OWNER_PASSWORD to the owner's login`);
		}
		throw error;
	}
	// A new database knows nothing of what earlier starts imported.
	const state = freshDatabase ? { examples: {} } : readState(settings.stateFile);

	const sandbox = await sandboxInfo(settings.sandboxUrl);
	const credential = await ensureCredential(n8n, sandbox, state);
	state.credentialId = credential.credential.id;
	if (credential.onSandbox) await connectCredential(n8n, sandbox, credential.credential.id);

	const imported = await importExamples(n8n, settings, state, credential.credential);
	writeFileSync(settings.stateFile, `${JSON.stringify(state, null, '\t')}\n`);
	const examples = await publishExamples(n8n, imported, credential);
	if (credential.onSandbox) await registerSandboxWebhooks(settings, examples);
	printSummary(settings, sandbox, credential, examples);
}

main().catch((error: unknown) => {
	process.stderr.write(`[npm start] setting up n8n failed: ${error instanceof Error ? error.message : String(error)}\n`);
	process.exit(1);
});
