import { aweberLocator } from './descriptions';

/** A segment (saved subscriber search) of the chosen list. */
export const segmentLocator = aweberLocator({
	name: 'segmentId',
	displayName: 'Segment',
	searchMethod: 'searchSegments',
	urlSegment: 'segments',
	urlExample: 'https://api.aweber.com/1.0/accounts/123456/lists/654321/segments/7001',
	idPlaceholder: '7001',
});
