const path = require('path');
const { task, src, dest } = require('gulp');

// n8n loads node and credential icons from dist, next to the compiled files.
task('build:icons', copyIcons);

function copyIcons() {
	const nodeIcons = src(['nodes/**/*.{png,svg}'], { encoding: false }).pipe(dest(path.resolve('dist', 'nodes')));
	const credentialIcons = src(['credentials/**/*.{png,svg}'], { encoding: false }).pipe(dest(path.resolve('dist', 'credentials')));
	const sharedIcons = src(['icons/**/*.{png,svg}'], { encoding: false }).pipe(dest(path.resolve('dist', 'icons')));
	return Promise.all([streamDone(nodeIcons), streamDone(credentialIcons), streamDone(sharedIcons)]);
}

function streamDone(stream) {
	return new Promise((resolve, reject) => stream.on('finish', resolve).on('end', resolve).on('error', reject));
}
