// docs/architecture.md draws the path of one request, Subscriber Create, from its field file to the wire. A maintainer
// follows that drawing to find where a request goes: this suite runs one Create and fails when the package runs a
// file the drawing does not name, or the drawing names a file the Create no longer runs.
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';

import { useTestbed } from '../harness/aweber';
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
});
