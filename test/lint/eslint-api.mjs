// Lints files through ESLint's Node API with the project's eslint.config.mjs, the config `n8n-node lint` runs.
// Run as a child process (jest cannot load an ES module config), it prints a JSON array holding, per folder, the
// array of its files' results:
//   node test/lint/eslint-api.mjs <folder to lint in> <file relative to it>... [-- <folder> <file>...]...
// Inline eslint-disable comments are ignored, as n8n's scanner ignores them.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { ESLint } = createRequire(path.join(root, 'package.json'))('eslint');

// Several folders in one run (`--` between them): ESLint and the plugins load once, each folder gets its own ESLint.
const groups = [[]];
for (const arg of process.argv.slice(2)) {
	if (arg === '--') groups.push([]);
	else groups[groups.length - 1].push(arg);
}
if (groups.some((group) => group.length < 2)) {
	process.stderr.write('usage: node test/lint/eslint-api.mjs <folder> <file>... [-- <folder> <file>...]...\n');
	process.exit(2);
}

const output = [];
for (const [cwd, ...files] of groups) {
	// With a config file given, ESLint matches the config's `files` and `ignores` against paths relative to `cwd`,
	// so a copy of the package in a temporary folder is linted exactly as the checkout would be.
	const eslint = new ESLint({
		cwd,
		overrideConfigFile: path.join(root, 'eslint.config.mjs'),
		allowInlineConfig: false,
	});
	const results = await eslint.lintFiles(files);
	output.push(
		results.map((result) => ({
			filePath: result.filePath,
			messages: result.messages.map(({ ruleId, severity, message }) => ({ ruleId, severity, message })),
		})),
	);
}
// One JSON array per folder, in the order given.
process.stdout.write(JSON.stringify(output));
