// A sentence said twice in one table cell or paragraph of the docs: the generator leaves such repeats out when it joins
// an operation's description and its hand-written note (scripts/docs/operations.ts), and `npx gulp docs:check` fails
// on any left in README.md or docs/operations/ (repeatedSentences).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The sentences of a text (split after . ! ? before a capital, a backtick, a star or a parenthesis). */
export function sentencesOf(text: string): string[] {
	return text
		.split(/(?<=[.!?])\s+(?=[A-Z`*(])/)
		.map((part) => part.trim())
		.filter(Boolean);
}

/** A sentence reduced to its words, for comparing: case, punctuation and markup left out. */
function wordsOf(text: string): string {
	return text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}

/** Whether `words` (a sentence's) occur, as whole words, within `within`. */
function says(within: string, words: string): boolean {
	return words !== '' && ` ${within} `.includes(` ${words} `);
}

/** The sentences of `text` that neither `said` nor an earlier sentence of `text` already says ("Sorted by ID." after "…, sorted by ID."). */
export function newSentences(said: string, text: string): string {
	const kept: string[] = [];
	for (const candidate of sentencesOf(text)) {
		if (![said, ...kept].some((earlier) => says(wordsOf(earlier), wordsOf(candidate)))) kept.push(candidate);
	}
	return kept.join(' ');
}

/** A description followed by the sentences of its note that the description does not already say. */
export function withoutRepeats(description: string, note: string): string {
	return [description, newSentences(description, note)].filter(Boolean).join(' ');
}

/** The table cells and paragraphs of a Markdown text (code blocks, headings and HTML comments left out). */
function unitsOf(markdown: string): string[] {
	const units: string[] = [];
	let paragraph: string[] = [];
	let inCode = false;
	const flush = () => {
		if (paragraph.length > 0) units.push(paragraph.join(' '));
		paragraph = [];
	};
	for (const line of markdown.split('\n')) {
		const trimmed = line.trim();
		if (trimmed.startsWith('```')) {
			flush();
			inCode = !inCode;
		} else if (inCode) {
			continue;
		} else if (trimmed.startsWith('|')) {
			flush();
			units.push(...trimmed.split(/(?<!\\)\|/).map((cell) => cell.trim()).filter(Boolean));
		} else if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('<!--')) {
			flush();
		} else if (/^([-*]|\d+\.) /.test(trimmed)) {
			// Each list item is a paragraph of its own.
			flush();
			paragraph.push(trimmed);
		} else {
			paragraph.push(trimmed);
		}
	}
	flush();
	return units;
}

/**
 * A clause said again counts from four words: shorter ones are names that sentences share by right ("Create or
 * Update", "Return All / Limit"), four is the shortest repeat the docs had ("AWeber refuses unconfirmed subscribers").
 */
const CLAUSE_WORDS = 4;

/** The clauses of a sentence: its parts between ; : ( and ). */
function clausesOf(sentence: string): string[] {
	return sentence.split(/[;:()]/).map(wordsOf).filter(Boolean);
}

/**
 * Each sentence of a table cell or paragraph that another sentence of it already says, whole (two words or more) or
 * by one of its clauses (four words or more: "AWeber refuses unconfirmed subscribers (405, explained)." after
 * "Delete … (AWeber refuses unconfirmed subscribers; …).").
 */
export function repeatedSentences(markdown: string): string[] {
	const repeats: string[] = [];
	for (const unit of unitsOf(markdown)) {
		const sentences = sentencesOf(unit);
		sentences.forEach((candidate, index) => {
			const words = wordsOf(candidate);
			const saidBy = (other: string, otherIndex: number) => {
				if (otherIndex === index) return false;
				const otherWords = wordsOf(other);
				// Of two equal sentences, the second is the repeat.
				if (otherWords === words) return otherIndex < index;
				if (words.split(' ').length >= 2 && says(otherWords, words)) return true;
				return clausesOf(candidate).some((clause) => clause.split(' ').length >= CLAUSE_WORDS && clause !== words && says(otherWords, clause));
			};
			if (sentences.some(saidBy)) repeats.push(`"${candidate}" in: ${unit.length > 160 ? `${unit.slice(0, 160)}…` : unit}`);
		});
	}
	return repeats;
}

/** The repeats left in the files `npx gulp docs` writes (README.md, docs/operations/*.md), each named with its file. */
export function repeatsInDocs(root: string): string[] {
	const operations = path.join(root, 'docs/operations');
	const files = ['README.md', ...(existsSync(operations) ? readdirSync(operations).filter((file) => file.endsWith('.md')).sort().map((file) => `docs/operations/${file}`) : [])];
	return files.flatMap((file) => repeatedSentences(readFileSync(path.join(root, file), 'utf8')).map((repeat) => `${file}: ${repeat}`));
}
