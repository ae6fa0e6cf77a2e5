// The repository's own tasks, the ones `n8n-node build` does not do (`npm run build` stays `n8n-node build` first).
// Never published: package.json "files" holds dist/ only.
//   npx gulp docs         writes README.md's operation tables and docs/operations/ from the built nodes
//   npx gulp docs:check   fails when those are stale, or say a sentence twice in one table cell or paragraph (CI runs it after the build)
// Both read dist/: run `npm run build` first. The work is in scripts/docs/operations.ts, loaded through tsx.
const { register } = require('tsx/cjs/api');

register();
const operationsDocs = require('./scripts/docs/operations.ts');
const repeatsDocs = require('./scripts/docs/repeats.ts');

async function docs() {
	const written = operationsDocs.writeDocs();
	console.log(written.length > 0 ? `Rewrote ${written.join(', ')}` : 'The operation docs were current');
}
docs.description = "Write README.md's operation tables and docs/operations/ from the built node descriptions";

async function docsCheck() {
	const stale = operationsDocs.staleDocs();
	if (stale.length > 0) {
		throw new Error(`Stale operation docs: ${stale.join(', ')}. Run \`npm run build && npx gulp docs\` and commit the result.`);
	}
	const repeats = repeatsDocs.repeatsInDocs(operationsDocs.ROOT);
	if (repeats.length > 0) {
		throw new Error(`A sentence said twice in one table cell or paragraph (reword the notes.md or the node's description):\n${repeats.join('\n')}`);
	}
}
docsCheck.description = 'Fail when README.md or docs/operations/ differ from what the built nodes give, or say a sentence twice in one cell or paragraph';

exports.docs = docs;
exports['docs:check'] = docsCheck;
