// Tour links and files: a tour goes out and comes back the same, a long one is sent to the
// file, a damaged or hostile link is one clear error.
import { compressToEncodedURIComponent } from 'lz-string';
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../scenario/testing/nodeCore';
import { tourToFile } from './tourFile';
import { MAX_TOUR_LINK, openTourText, tourEmbedCode, tourFileText, tourFromHash, tourLink } from './tourShare';
import { tourById } from './tours';

loadNodeCore();
const BASE = 'http://localhost:5173/index.html?x=1#v1=abc';

describe('tour links', () => {
  it('a small tour goes into a link and comes back the same', () => {
    const t = tourById('bast-thrashing')!;
    const link = tourLink(t, BASE);
    if ('error' in link) throw new Error(link.error);
    expect(link.url.startsWith('http://localhost:5173/index.html?x=1#tourfile=')).toBe(true);
    expect(link.url.length).toBeLessThanOrEqual(MAX_TOUR_LINK);
    expect(tourFromHash(new URL(link.url).hash)).toEqual({ tour: t });
  });

  it('a tour too long for a link says so and points to the file', () => {
    const t = tourById('intro-ftl')!;
    // text that does not compress: a pseudo-random letter stream
    let x = 1;
    const noise = () =>
      Array.from({ length: 3000 }, () => 'abcdefghij klmnopqrstuvwxyz'[(x = (x * 48271) % 2147483647) % 27]).join('');
    const long = { ...t, stops: t.stops.map((s) => ({ ...s, text: noise() })) };
    const link = tourLink(long, BASE);
    expect('error' in link && link.error).toMatch(/too long for a link .* Save it as a file \(Save tour file\)/);
  });

  it('a damaged, hostile or other link is one clear error, or not a tour link', () => {
    expect(tourFromHash('#v1=abc')).toBeNull();
    expect(tourFromHash('#tour=bast-thrashing')).toBeNull();
    expect(tourFromHash('#tourfile=%%%')?.problems?.[0].message).toMatch(/damaged/);
    expect(tourFromHash(`#tourfile=${'A'.repeat(MAX_TOUR_LINK + 1)}`)?.problems?.[0].message).toMatch(/too long/);
    const hostile = {
      ...tourToFile(tourById('bast-thrashing')!),
      stops: [{ title: 'x', at: { step: 999, op: 0 }, text: '<script>' }],
    };
    expect(tourFromHash(`#tourfile=${compressToEncodedURIComponent(JSON.stringify(hostile))}`)).toEqual({
      problems: [{ path: 'stops[0].at.step', message: 'request 999 is beyond the workload (24 requests)' }],
    });
  });

  it('a saved file opens as the same tour', () => {
    const t = tourById('rftl-bounded')!;
    expect(openTourText(tourFileText(t))).toEqual({ tour: t });
  });

  it('embed code plays the tour in the embedded app, with the title escaped; a long tour points to the file', () => {
    const t = { ...tourById('bast-thrashing')!, title: 'Mine "quoted" <b>&</b>' };
    const embed = tourEmbedCode(t, BASE);
    if ('error' in embed) throw new Error(embed.error);
    expect(embed.code).toMatch(/^<iframe src="[^"<]+" width="960" height="600" title="[^"<]+"/);
    expect(embed.code).toContain('title="ftlscope tour “Mine &quot;quoted&quot; &lt;b>&amp;&lt;/b>”"');
    const src = new URL(/src="([^"]+)"/.exec(embed.code)![1].replace(/&amp;/g, '&'));
    expect(src.pathname).toBe('/index.html');
    expect(src.search).toBe('?embed=1');
    expect(tourFromHash(src.hash)).toEqual({ tour: t });
    let x = 7;
    const noise = () =>
      Array.from({ length: 3000 }, () => 'abcdefghij klmnopqrstuvwxyz'[(x = (x * 48271) % 2147483647) % 27]).join('');
    const long = { ...t, stops: t.stops.map((s) => ({ ...s, text: noise() })) };
    const refused = tourEmbedCode(long, BASE);
    expect('error' in refused && refused.error).toMatch(/too long to embed.*Save tour file.*Open tour file/);
  });
});
