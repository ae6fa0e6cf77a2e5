// docs/architecture.md draws the path of one request, Subscriber Create, from its field file to the wire. A maintainer
// follows that drawing to find where a request goes: this suite runs one Create and fails when the package runs a
// file the drawing does not name, or the drawing names a file the Create no longer runs. It also checks the shorter
// list under the drawing: the files a Create's requests pass through on their way to n8n, at most 8.
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';

import { useTestbed } from '../harness/aweber';
import { packageFile } from '../harness/nodeTypes';
import { apiCalls, newsletterScope, run } from '../nodes/email-nodes.helpers';

const projectRoot = path.resolve(__dirname, '../..');
const HEADING = '### One request, drawn: Subscriber Create';
/** The operation's description files: n8n reads them, no function of theirs runs for a request. */
const DECLARATIONS = ['create', 'index'];

/** The file names (`routing.ts`) the drawing under HEADING shows, up to the next heading. */
function filesInDrawing(): string[] {
	const architecture = readFileSync(path.join(projectRoot, 'docs/architecture.md'), 'utf8');
	const start = architecture.indexOf(HEADING);
	expect(start).toBeGreaterThanOrEqual(0);
	const section = architecture.slice(start + HEADING.length).split(/\n#{2,3} /)[0];
	const drawing = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
	return [...new Set([...drawing.matchAll(/\b(\w+)\.ts\b/g)].map((match) => match[1]))].sort();
}

/** The package's own files, built (`npm test`) or as sources (`npm run mutation`). */
const productFile = new RegExp(`^file://${projectRoot.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(dist/)?(nodes|credentials)/.+\\.(js|ts)$`);

/** The file names docs/architecture.md gives under HEADING, after the drawing, as the way of a Create to n8n. */
function filesOnTheWayInDocs(): string[] {
	const architecture = readFileSync(path.join(projectRoot, 'docs/architecture.md'), 'utf8');
	const section = architecture.slice(architecture.indexOf(HEADING)).split(/\n#{2,3} /)[0];
	const paragraph = /\nOn its way to n8n, ([\s\S]*?)\n\n/.exec(`${section}\n\n`)?.[1] ?? '';
	return [...new Set([...paragraph.matchAll(/\b(\w+)\.ts\b/g)].map((match) => match[1]))].sort();
}

/** The product files (by name) on a stack trace, the package's own frames only. */
function productFilesOn(stack: string): string[] {
	const frames = [...stack.matchAll(/\(?(\/[^\s()]+?):\d+:\d+\)?$/gm)].map((match) => `file://${match[1]}`);
	return frames.filter((url) => productFile.test(url)).map((url) => path.basename(url).replace(/\.(js|ts)$/, ''));
}

/**
 * The product files on the stack each time the package hands a request to n8n while `action` runs: the caller of
 * `sendFollowingApiRedirects` (redirects.ts), through which every request goes, is watched.
 */
async function filesOnTheWayToN8n(action: () => Promise<void>): Promise<string[]> {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const redirects = require(packageFile('dist/nodes/shared/redirects.js')) as typeof import('../../nodes/shared/redirects');
	const original = redirects.sendFollowingApiRedirects;
	const seen = new Set<string>();
	const limit = Error.stackTraceLimit;
	Error.stackTraceLimit = Infinity;
	const watch = jest.spyOn(redirects, 'sendFollowingApiRedirects').mockImplementation(async (node, request, send) =>
		await original(node, request, async (hop) => {
			for (const file of productFilesOn(new Error().stack ?? '')) seen.add(file);
			return await send(hop);
		}),
	);
	try {
		await action();
	} finally {
		watch.mockRestore();
		Error.stackTraceLimit = limit;
	}
	return [...seen].sort();
}

/** The product files (by name, without folder or extension) whose functions ran while `action` ran. */
async function filesRunBy(action: () => Promise<void>): Promise<string[]> {
	const session = new Session();
	session.connect();
	try {
		await session.post('Profiler.enable');
		await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
		await action();
		const { result } = await session.post('Profiler.takePreciseCoverage');
		const names = result
			.filter((script) => productFile.test(script.url))
			.filter((script) => script.functions.some((fn) => fn.functionName !== '' && fn.ranges[0].count > 0))
			.map((script) => path.basename(script.url).replace(/\.(js|ts)$/, ''));
		return [...new Set(names)].sort();
	} finally {
		await session.post('Profiler.stopPreciseCoverage');
		session.disconnect();
	}
}

describe("docs/architecture.md's drawing of one request", () => {
	const bed = useTestbed();
	const create = async (email: string) => {
		const result = await run(bed, 'aWeberSubscriber', { ...newsletterScope(bed), operation: 'create', email, additionalFields: { tags: 'drawn' } });
		expect(result.status).toBe('success');
	};

	/** What AWeber answered the calls made since the log held `from` entries. */
	const answersSince = (from: number) => apiCalls(bed).slice(from).map((call) => `${call.method} ${call.status}`);

	it('names exactly the files a Subscriber Create runs, from its field file to the wire', async () => {
		// The first Create loads every module; the one measured runs only what a request runs.
		await create('first.drawn@example.com');
		// The drawing is of a Create that meets no failure. On a busy machine one may (a token expired meanwhile, a
		// slow answer, a connection the sandbox closed before the request reached it, which its log never shows), and
		// then it also runs the failure path: it is measured again, at most five times. A Create that runs the failure
		// path every time is a change the drawing must show, and fails below.
		let ran: string[] = [];
		const disturbed: string[] = [];
		for (let attempt = 1; attempt <= 5; attempt++) {
			const from = apiCalls(bed).length;
			ran = await filesRunBy(async () => await create(`measured${attempt}.drawn@example.com`));
			const answers = answersSince(from).join();
			if (answers === 'POST 201,GET 200' && !ran.includes('failureDecision')) break;
			disturbed.push(`attempt ${attempt}: answers ${answers}, ran ${ran.join(' ')}`);
		}
		expect(ran.length).toBeGreaterThan(5);
		expect({ drawn: filesInDrawing(), disturbed }).toEqual({ drawn: [...ran, ...DECLARATIONS].sort(), disturbed });
	});

	it('names the files a Create passes through on its way to n8n, at most 8, from its field file to the wire', async () => {
		const passed = await filesOnTheWayToN8n(async () => await create('on.its.way@example.com'));
		expect(passed).toContain('redirects');
		const onTheWay = [...passed, ...DECLARATIONS].sort();
		expect(filesOnTheWayInDocs()).toEqual(onTheWay);
		expect(onTheWay.length).toBeLessThanOrEqual(8);
	});
});
