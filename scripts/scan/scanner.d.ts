// Types for the parts of n8n's scanner (@n8n/scan-community-package, plain ESM without typings) that scan.ts calls.
declare module '@n8n/scan-community-package/scanner/scanner.mjs' {
	import type { Linter } from 'eslint';

	export interface AnalysisResult {
		passed: boolean;
		message?: string;
		details?: string;
	}
	/** The globs the scanner lints in a package's source checkout. */
	export const SOURCE_FILE_PATTERNS: string[];
	/** The flat ESLint config the scanner lints with. */
	export function buildScanConfig(): Promise<Linter.Config[]>;
	/** Lints a folder as the scanner does (inline eslint-disable comments ignored); fails on any error. */
	export function analyzePackage(packageDir: string, filePatterns?: string[]): Promise<AnalysisResult>;
}
