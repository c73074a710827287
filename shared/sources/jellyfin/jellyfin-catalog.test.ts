/**
 * The `library_a` (Jellyfin) catalog against an msw stand-in for the server: every look-up, the query
 * each sends, songs mapped from `BaseItemDto`s (durations from ticks, covers falling back to the
 * album's), lyrics turned into LRC, and a Jellyfin that is not configured.
 */
import { describe, expect, it } from 'vitest';
import { ALICE, JELLYFIN_URL, useJellyfinAsAlice } from '../../../tests/helpers/jellyfin-api';
import type { Song } from '../../domain/schemas';
import { JellyfinCatalog } from './jellyfin-catalog';
import { lyricsToLrc } from './jellyfin-lyrics';

const { api, jellyfin } = useJellyfinAsAlice();
const catalog = new JellyfinCatalog(jellyfin.newClient());

const HARBOUR_ALBUM_ID = 'a1b00000000000000000000000000001';
const primaryImage = (itemId: string) => `${JELLYFIN_URL}/Items/${itemId}/Images/Primary`;
/** A song of the library's Harbour Lights album, with the picture of `pictureOf` (itself or the album). */
const harbourLightsSong = (id: string, name: string, duration: number, pictureOf = id): Song => ({
  id,
  name,
  artist: 'The Quiet Coast',
  album: 'Harbour Lights',
  duration,
  coverUrl: primaryImage(pictureOf),
  platform: 'library_a',
});
const LANTERN = harbourLightsSong('c0000000000000000000000000000001', 'Lantern Song', 214);
// No picture of its own: the album's.
const TIDE = harbourLightsSong('c0000000000000000000000000000002', 'Tide Tables', 187, HARBOUR_ALBUM_ID);
const FERRY: Song = {
  id: 'c0000000000000000000000000000003',
  name: 'Night Ferry',
  artist: 'Mara Venn / Oskar Lind',
  album: 'Crossings',
  duration: 258,
  coverUrl: '',
  platform: 'library_a',
};
const HARBOUR_ALBUM = {
  id: HARBOUR_ALBUM_ID,
  name: 'Harbour Lights',
  artist: 'The Quiet Coast',
  coverUrl: primaryImage(HARBOUR_ALBUM_ID),
  songCount: 2,
  platform: 'library_a',
};
const PLAYLIST_ID = 'f1a50000000000000000000000000001';
const UNKNOWN_ID = '0000000000000000000000000000beef';

/** The query of the last request to `path`, without the user id every GET carries. */
function lastQuery(path: string) {
  const request = api.to(path).at(-1)!;
  expect(request.query.userId).toBe(ALICE.id);
  const { userId: _, ...query } = request.query;
  return query;
}

describe('Jellyfin catalog: search', () => {
  it('finds songs by text, recursively, with paging', async () => {
    expect(await catalog.search('lantern', 10, 0)).toEqual({ ok: true, value: [LANTERN] });
    expect(lastQuery('/Items')).toEqual({
      searchTerm: 'lantern',
      IncludeItemTypes: 'Audio',
      Recursive: 'true',
      Limit: '10',
      StartIndex: '0',
    });
    expect(await catalog.search('e', 2, 1)).toEqual({ ok: true, value: [TIDE, FERRY] });
  });

  it('finds albums with their song counts and audio playlists', async () => {
    expect(await catalog.searchAlbums('harbour', 5)).toEqual({ ok: true, value: [HARBOUR_ALBUM] });
    expect(lastQuery('/Items')).toMatchObject({ IncludeItemTypes: 'MusicAlbum', Fields: 'ChildCount' });
    expect(await catalog.searchPlaylists('road', 5)).toEqual({
      ok: true,
      value: [
        {
          id: PLAYLIST_ID,
          name: 'Road Trip',
          coverUrl: primaryImage(PLAYLIST_ID),
          songCount: 3,
          platform: 'library_a',
        },
      ],
    });
    expect(lastQuery('/Items')).toMatchObject({ IncludeItemTypes: 'Playlist', MediaTypes: 'Audio' });
  });
});

describe('Jellyfin catalog: songs and collections', () => {
  it('looks a song up by id; unknown, malformed and non-song ids are no song', async () => {
    expect(await catalog.song(TIDE.id)).toEqual({ ok: true, value: TIDE });
    expect(lastQuery('/Items')).toEqual({ Ids: TIDE.id });
    expect(await catalog.song(UNKNOWN_ID)).toEqual({ ok: true, value: undefined });
    expect(await catalog.song(HARBOUR_ALBUM.id)).toEqual({ ok: true, value: undefined });
    const asked = api.requests.length;
    expect(await catalog.song('../System/Info')).toEqual({ ok: true, value: undefined });
    expect(api.requests).toHaveLength(asked);
  });

  it("lists an album's songs sorted by disc and track; an album without songs is no album", async () => {
    expect(await catalog.album(HARBOUR_ALBUM.id)).toEqual({ ok: true, value: { songs: [LANTERN, TIDE] } });
    expect(lastQuery('/Items')).toEqual({
      IncludeItemTypes: 'Audio',
      Recursive: 'true',
      ParentId: HARBOUR_ALBUM.id,
      SortBy: 'ParentIndexNumber,IndexNumber,SortName',
      Limit: '1000',
    });
    expect(await catalog.album(UNKNOWN_ID)).toEqual({ ok: true, value: undefined });
  });

  it("lists a playlist's songs in its order, counting the entries that are not songs", async () => {
    expect(await catalog.playlist(PLAYLIST_ID)).toEqual({
      ok: true,
      value: { songs: [FERRY, LANTERN], totalCount: 3 },
    });
    expect(lastQuery(`/Playlists/${PLAYLIST_ID}/Items`)).toEqual({ Limit: '1000' });
    expect(await catalog.playlist(UNKNOWN_ID)).toEqual({ ok: true, value: undefined });
  });

  it('describes a playlist with its overview', async () => {
    expect(await catalog.playlistDetail(PLAYLIST_ID)).toEqual({
      ok: true,
      value: {
        id: PLAYLIST_ID,
        name: 'Road Trip',
        description: 'Songs for the long drive north.',
        coverUrl: primaryImage(PLAYLIST_ID),
        songCount: 3,
      },
    });
    expect(lastQuery('/Items')).toEqual({ Fields: 'ChildCount,Overview', Ids: PLAYLIST_ID });
    expect(await catalog.playlistDetail(LANTERN.id)).toEqual({ ok: true, value: undefined });
  });
});

describe('Jellyfin catalog: lyrics', () => {
  it('turns timed lines (ticks) into LRC; a song without lyrics has none', async () => {
    expect(await catalog.lyrics(LANTERN.id)).toEqual({
      ok: true,
      value: [
        '[00:12.50]Hold the lantern to the water',
        '[00:18.34]Count the boats that never came',
        '[00:25.00]',
        '[10:12.34]Morning finds us by the harbour',
      ].join('\n'),
    });
    expect(await catalog.lyrics(TIDE.id)).toEqual({ ok: true, value: undefined });
  });

  it('keeps unsynced lines as plain text and treats blank lyrics as none', () => {
    expect(lyricsToLrc([{ Text: 'first' }, { Text: 'second', Start: null }])).toBe('first\nsecond');
    expect(lyricsToLrc([{ Text: ' ', Start: 0 }])).toBeUndefined();
    expect(lyricsToLrc([])).toBeUndefined();
  });
});

describe('Jellyfin catalog: personal pages', () => {
  it('makes personal FM an Instant Mix around a random song', async () => {
    expect(await catalog.personalFm()).toEqual({ ok: true, value: [TIDE, FERRY] });
    const [seed] = api.to('/Items');
    expect(seed!.query).toMatchObject({ IncludeItemTypes: 'Audio', SortBy: 'Random', Limit: '1' });
    expect(lastQuery(`/Items/${LANTERN.id}/InstantMix`)).toEqual({ Limit: '30' });
  });

  it("gives a song's Instant Mix as the songs like it, the seed left out, at most `limit`", async () => {
    expect(await catalog.relatedSongs(LANTERN, 5)).toEqual({ ok: true, value: [TIDE, FERRY] });
    expect(lastQuery(`/Items/${LANTERN.id}/InstantMix`)).toEqual({ Limit: '6' });
    // A mix may hold its own seed; one more is asked for so the seed's place is filled.
    expect(await catalog.relatedSongs(TIDE, 1)).toEqual({ ok: true, value: [FERRY] });
    expect(lastQuery(`/Items/${TIDE.id}/InstantMix`)).toEqual({ Limit: '2' });
    expect(await catalog.relatedSongs(LANTERN, 1)).toEqual({ ok: true, value: [TIDE] });
  });

  it('passes a mix the server cannot make on as an error; a malformed id asks nothing', async () => {
    expect(await catalog.relatedSongs({ ...LANTERN, id: UNKNOWN_ID }, 5)).toEqual({
      ok: false,
      error: `Jellyfin answered HTTP 404 to /Items/${UNKNOWN_ID}/InstantMix`,
    });
    const asked = api.requests.length;
    expect(await catalog.relatedSongs({ ...LANTERN, id: '../Users' }, 5)).toEqual({ ok: true, value: [] });
    expect(api.requests).toHaveLength(asked);
  });

  it('names the logged-in user and their picture as the account status', async () => {
    expect(await catalog.accountStatus()).toEqual({
      ok: true,
      value: {
        loggedIn: true,
        nickname: 'alice',
        avatarUrl: `${JELLYFIN_URL}/Users/${ALICE.id}/Images/Primary`,
      },
    });
  });

  it('lists the latest albums, the most played songs and the favourites', async () => {
    const latest = await catalog.latestAlbums(12);
    expect(latest.ok && latest.value.map((album) => album.name)).toEqual(['Harbour Lights', 'Crossings']);
    expect(lastQuery('/Items')).toEqual({
      IncludeItemTypes: 'MusicAlbum',
      Recursive: 'true',
      Fields: 'ChildCount',
      SortBy: 'DateCreated,SortName',
      SortOrder: 'Descending',
      Limit: '12',
    });

    expect(await catalog.mostPlayed(12)).toEqual({ ok: true, value: [LANTERN, FERRY] });
    expect(lastQuery('/Items')).toMatchObject({
      Filters: 'IsPlayed',
      SortBy: 'PlayCount,SortName',
      SortOrder: 'Descending',
    });

    expect(await catalog.favorites(100)).toEqual({ ok: true, value: [LANTERN, FERRY] });
    expect(lastQuery('/Items')).toMatchObject({ Filters: 'IsFavorite', Limit: '100' });
  });

  it("lists the music genres and a random pick of a genre's songs", async () => {
    expect(await catalog.genres(30)).toEqual({
      ok: true,
      value: [
        { id: 'd0000000000000000000000000000002', name: 'Jazz' },
        { id: 'd0000000000000000000000000000001', name: 'Rock' },
      ],
    });
    expect(lastQuery('/MusicGenres')).toEqual({ SortBy: 'SortName', Limit: '30' });
    expect(await catalog.genreSongs('d0000000000000000000000000000001', 100)).toEqual({
      ok: true,
      value: [LANTERN, TIDE],
    });
    expect(lastQuery('/Items')).toMatchObject({
      GenreIds: 'd0000000000000000000000000000001',
      SortBy: 'Random',
    });
    expect(await catalog.genreSongs('rock', 100)).toEqual({ ok: true, value: [] });
  });
});

describe('Jellyfin catalog without a configuration', () => {
  it('answers every look-up with a readable error, and its status as logged out', async () => {
    await jellyfin.configure({ serverUrl: '' });
    const error = { ok: false, error: 'Jellyfin is not configured' };
    expect(await catalog.search('x', 5)).toEqual(error);
    expect(await catalog.song(LANTERN.id)).toEqual(error);
    expect(await catalog.accountStatus()).toEqual({
      ok: true,
      value: {
        loggedIn: false,
        nickname: 'Jellyfin is not configured',
        phrase: { code: 'jellyfinNotConfigured', params: {} },
      },
    });
    expect(await catalog.genres(5)).toEqual(error);
    expect(api.requests).toEqual([]);
  });

  it('passes server failures on as sentences naming Jellyfin', async () => {
    api.answer('GET /Items', () => new Response('upstream down', { status: 502 }));
    expect(await catalog.search('x', 5)).toEqual({
      ok: false,
      error: 'Jellyfin answered HTTP 502 to /Items',
    });
  });
});
