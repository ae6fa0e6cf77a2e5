// One name per node: README.md, CHANGELOG.md and docs/ name each node as the built nodes do, with its display name
// (what n8n's panel and node settings show) or its default node name (what a new node on the canvas is called:
// "AWeber Subscriber" for the node the panel lists as "AWeber"). A name of ours shortened or altered ("AWeber Poll
// Trigger", "Poll Trigger", "AWeber Webhook") is a slip: the reader looks for a node that n8n does not show.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { loadPackage } from '../harness/nodeTypes';

const ROOT = path.resolve(__dirname, '../..');
const DOCS = ['README.md', 'CHANGELOG.md', ...['docs', 'docs/operations'].flatMap((dir) => readdirSync(path.join(ROOT, dir)).filter((file) => file.endsWith('.md')).map((file) => `${dir}/${file}`))];

const { nodes, credentials } = loadPackage();
const nodeNames = [...nodes.values()].flatMap(({ description }) => [description.displayName, String(description.defaults.name)]);
const knownNames = new Set([...nodeNames, ...[...credentials.values()].map((credential) => credential.displayName)]);
const triggerWords = [...nodes.values()]
	.filter(({ description }) => description.group.includes('trigger'))
	.flatMap(({ description }) => description.displayName.split(' '))
	.filter((word) => !['AWeber', 'Trigger'].includes(word));

/** Two words are the same name altered when they share their first four letters ("Poll" and "Polling"). */
const sameStem = (word: string, other: string) => word.slice(0, 4).toLowerCase() === other.slice(0, 4).toLowerCase();

/** The names in `text` that look like one of our nodes' but are not one of them. */
export function misnamedNodes(text: string): string[] {
	const slips: string[] = [];
	// "AWeber" followed by capitalised words, across line breaks: a node name of ours, or the start of one.
	for (const [match] of text.matchAll(/\bAWeber(?:\s+[A-Z][A-Za-z0-9]*)+/g)) {
		const phrase = match.replace(/\s+/g, ' ');
		if (knownNames.has(phrase)) continue;
		const unknownTrigger = phrase.endsWith(' Trigger');
		const shortened = [...knownNames].some((name) => name.startsWith(`${phrase} `));
		if (unknownTrigger || shortened) slips.push(phrase);
	}
	// "Poll Trigger", "Webhook Trigger": one of our triggers without "AWeber", or with a word altered.
	for (const [, words] of text.matchAll(/(?<!AWeber\s+)\b((?:[A-Z][A-Za-z0-9]*\s+)+)Trigger\b/g)) {
		const [first] = words.trim().split(/\s+/);
		if (triggerWords.some((word) => sameStem(word, first))) slips.push(`${words.replace(/\s+/g, ' ')}Trigger`);
	}
	return slips;
}

describe('node names in the docs', () => {
	it('knows the built nodes (the package must be built: npm run build)', () => {
		expect(knownNames).toEqual(expect.objectContaining({ size: expect.any(Number) }));
		expect([...knownNames]).toEqual(expect.arrayContaining(['AWeber', 'AWeber Subscriber', 'AWeber Webhook Trigger', 'AWeber Polling Trigger']));
	});

	it.each(DOCS)('%s names every node as the built nodes do', (file) => {
		expect(misnamedNodes(readFileSync(path.join(ROOT, file), 'utf8'))).toEqual([]);
	});

	it("finds a node named otherwise than n8n shows it, and leaves n8n's own nodes and other AWeber words alone", () => {
		const text = [
			'the AWeber Poll Trigger, the Poll Trigger and the AWeber\n  Trigger; in the panel, AWeber Webhook.',
			'A Manual Trigger, a Schedule Trigger, an n8n Form Trigger and the MCP Server Trigger before the AWeber Polling',
			'Trigger or the AWeber Subscriber; AWeber IDs, the AWeber API, the AWeber OAuth2 API credential.',
		].join('\n');
		expect(misnamedNodes(text)).toEqual(['AWeber Poll Trigger', 'AWeber Trigger', 'AWeber Webhook', 'Poll Trigger']);
	});
});
