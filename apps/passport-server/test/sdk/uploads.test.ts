import { request as httpRequest } from 'node:http';
import { crc32 } from 'node:zlib';
import {
  accountInfo,
  downloadImage,
  downloadImageV2,
  pendingPics,
  remainUpdateTimes,
  reviewPic,
  uploadAvatar,
  uploadPic,
} from '@portico/account-sdk';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER, ErrorCode } from '../../src/protocol';
import { AID, rejectsWith, type SdkBrowser, type SdkServer, startSdkServer } from '../support/sdk-browser';
import { signedInBySms } from './profile-helpers';

/**
 * Uploads (issue 17, slice 2; SECURITY.md "uploads") through the real SDK and, for what the SDK never
 * sends (two files, a cut-off stream), by hand: re-encoding that strips metadata and whatever rides
 * along, the magic-byte allow-list, the pixel and byte caps, one file, nothing left behind on a refusal
 * or an abort, and the review state of sensitive pictures.
 */

interface Uploaded {
  key: string;
  url: string;
  width: number;
  height: number;
  review_state: string;
}

let server: SdkServer;
beforeAll(async () => {
  server = await startSdkServer();
});
afterAll(async () => server?.close());

const png = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .withExif({ IFD0: { Copyright: 'SECRET-EXIF-MARKER', Artist: 'SECRET-EXIF-MARKER' } })
    .png()
    .toBuffer();
const jpeg = () =>
  sharp({ create: { width: 80, height: 40, channels: 3, background: '#cc6633' } })
    .withExif({ IFD0: { Artist: 'SECRET-EXIF-MARKER' } })
    .jpeg()
    .toBuffer();
const blob = (bytes: Buffer | string, type = 'image/png') =>
  new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type });

const imageCount = async () =>
  Number(
    (
      await server.app.db
        .selectFrom('images')
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirstOrThrow()
    ).count,
  );

/** A POST the SDK would never send: the browser's cookies and CSRF header, any body. */
function postRaw(
  browser: SdkBrowser,
  path: string,
  body: FormData | string,
  headers: Record<string, string> = {},
) {
  return browser.fetch(`${browser.baseUrl}${path}?aid=${AID}`, {
    method: 'POST',
    body,
    headers: { [CSRF_HEADER]: browser.cookies.get(CSRF_COOKIE)?.value ?? '', ...headers },
  });
}

describe('avatar upload', () => {
  it('re-encodes the image as WebP without its metadata, makes it the avatar and counts it', async () => {
    const { client, account } = await signedInBySms(server);
    const original = await png();
    expect(original.includes('SECRET-EXIF-MARKER')).toBe(true);
    const uploaded = await uploadAvatar<Uploaded>(client, { avatar: blob(original) });
    expect(uploaded).toMatchObject({ width: 64, height: 48, review_state: 'approved' });
    // The new avatar is a profile change in the person's activity, as choosing one on the profile is.
    const events = await server.app.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('stream', '=', `user:${account.user_id}`)
      .where('type', '=', 'account.profile_updated')
      .execute();
    expect(events.map((event) => JSON.parse(String(event.data)))).toEqual([{ fields: ['avatar_key'] }]);
    expect(uploaded.key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await accountInfo<{ avatar_url: string }>(client)).avatar_url).toBe(uploaded.url);

    const response = await fetch(`${server.baseUrl}${uploaded.url}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-security-policy')).toContain('sandbox');
    const served = Buffer.from(await response.arrayBuffer());
    expect(served.includes('SECRET-EXIF-MARKER')).toBe(false);
    const meta = await sharp(served).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 64, height: 48 });
    expect(meta.exif).toBeUndefined();
    // A second request with the ETag is answered 304.
    const again = await fetch(`${server.baseUrl}${uploaded.url}`, {
      headers: { 'if-none-match': String(response.headers.get('etag')) },
    });
    expect(again.status).toBe(304);

    expect(
      (await remainUpdateTimes<{ remain_times: number }>(client, { field: 'avatar' })).remain_times,
    ).toBe(19);
  });

  it('accepts jpeg, webp and gif, and replaces the previous avatar (its image is deleted)', async () => {
    const { client, account } = await signedInBySms(server);
    const first = await uploadAvatar<Uploaded>(client, { avatar: blob(await jpeg(), 'image/jpeg') });
    const webp = await sharp(await png(30, 30))
      .webp()
      .toBuffer();
    const second = await uploadAvatar<Uploaded>(client, { avatar: blob(webp, 'image/webp') });
    const gif = await sharp(await png(20, 10))
      .gif()
      .toBuffer();
    const third = await uploadAvatar<Uploaded>(client, { avatar: blob(gif, 'image/gif') });
    expect([first.width, second.width, third.width]).toEqual([80, 30, 20]);
    const keys = (
      await server.app.db.selectFrom('images').select('key').where('owner_id', '=', account.user_id).execute()
    ).map((row) => row.key);
    expect(keys).toEqual([third.key]);
    expect((await fetch(`${server.baseUrl}${first.url}`)).status).toBe(404);
  });

  it('scales a large image down to 512 px', async () => {
    const { client } = await signedInBySms(server);
    const uploaded = await uploadAvatar<Uploaded>(client, { avatar: blob(await png(2000, 1000)) });
    expect([uploaded.width, uploaded.height]).toEqual([512, 256]);
  });
});

describe('downloadImage through the SDK', () => {
  it('resolves the uploaded avatar as a Blob of its bytes and content type, web and sso clients alike', async () => {
    const { client, browser } = await signedInBySms(server);
    const uploaded = await uploadAvatar<Uploaded>(client, { avatar: blob(await png()) });
    const served = new Uint8Array(await (await fetch(`${server.baseUrl}${uploaded.url}`)).arrayBuffer());

    const image: Blob = await downloadImage(client, { key: uploaded.key });
    expect(image).toBeInstanceOf(Blob);
    expect(image.type).toBe('image/webp');
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(served);
    expect(await sharp(Buffer.from(await image.arrayBuffer())).metadata()).toMatchObject({
      format: 'webp',
      width: 64,
      height: 48,
    });
    // The same call from an sso client of the same browser: the download has no sso variant.
    const sso = await downloadImage(browser.client('sso'), { key: uploaded.key });
    expect(new Uint8Array(await sso.arrayBuffer())).toEqual(served);
  });

  it('rejects with the error envelope: an unknown key, a picture under review for anyone but its owner', async () => {
    const owner = await signedInBySms(server);
    const other = await signedInBySms(server);
    const error = await rejectsWith(downloadImage(other.client, { key: 'A'.repeat(32) }), 'notFound');
    expect(error.status).toBe(404);
    const pic = await uploadPic<Uploaded>(owner.client, { pic: blob(await png()), is_sensitive: 1 });
    await rejectsWith(downloadImage(other.client, { key: pic.key }), 'notFound');
    expect((await downloadImage(owner.client, { key: pic.key })).type).toBe('image/webp');
  });
});

describe('upload refusals leave nothing behind', () => {
  it('refuses SVG (even named .png), with 415 and no row', async () => {
    const { client } = await signedInBySms(server);
    const before = await imageCount();
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>';
    const error = await rejectsWith(
      uploadAvatar(client, { avatar: blob(svg, 'image/png') }),
      'imageTypeNotAllowed',
    );
    expect(error.status).toBe(415);
    await rejectsWith(
      uploadPic(client, { pic: blob(`<?xml version="1.0"?>${svg}`, 'image/svg+xml') }),
      'imageTypeNotAllowed',
    );
    await rejectsWith(
      uploadAvatar(client, { avatar: blob('<html><script>alert(1)</script></html>') }),
      'imageTypeNotAllowed',
    );
    expect(await imageCount()).toBe(before);
  });

  it('refuses a polyglot that starts as a GIF but is a script, and strips a script riding behind a real PNG', async () => {
    const { client } = await signedInBySms(server);
    const before = await imageCount();
    await rejectsWith(
      uploadAvatar(client, {
        avatar: blob('GIF89a/*<script>alert(document.cookie)</script>*/=1;', 'image/gif'),
      }),
      'imageInvalid',
    );
    // A PNG whose magic says GIF: the decoder disagrees with the allow-list's reading.
    const disguised = Buffer.concat([Buffer.from('GIF89a'), await png()]);
    await rejectsWith(uploadAvatar(client, { avatar: blob(disguised, 'image/gif') }), 'imageInvalid');
    expect(await imageCount()).toBe(before);

    const riding = Buffer.concat([await png(), Buffer.from('<html><script>alert(1)</script></html>')]);
    const uploaded = await uploadPic<Uploaded>(client, { pic: blob(riding) });
    const served = Buffer.from(await (await fetch(`${server.baseUrl}${uploaded.url}`)).arrayBuffer());
    expect(served.includes('<script>')).toBe(false);
    expect(served.subarray(8, 12).toString('latin1')).toBe('WEBP');
  });

  it('refuses a PNG whose header declares 100000 × 100000 pixels before decoding it', async () => {
    const { client } = await signedInBySms(server);
    const before = await imageCount();
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(100_000, 0);
    ihdr.writeUInt32BE(100_000, 4);
    ihdr.set([8, 2, 0, 0, 0], 8);
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body));
      return Buffer.concat([length, body, crc]);
    };
    const bomb = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    await rejectsWith(uploadAvatar(client, { avatar: blob(bomb) }), 'imageTooManyPixels');
    expect(await imageCount()).toBe(before);
  });

  it('refuses a truncated image', async () => {
    const { client } = await signedInBySms(server);
    const whole = await jpeg();
    await rejectsWith(
      uploadAvatar(client, { avatar: blob(whole.subarray(0, Math.floor(whole.length / 2)), 'image/jpeg') }),
      'imageInvalid',
    );
  });

  it('stops reading a 20 MB file at the cap: 413 and no row', async () => {
    const { client } = await signedInBySms(server);
    const before = await imageCount();
    const big = Buffer.alloc(20 * 1024 * 1024);
    (await png()).copy(big);
    const error = await rejectsWith(uploadAvatar(client, { avatar: blob(big) }), 'imageTooLarge');
    expect(error.status).toBe(413);
    expect(await imageCount()).toBe(before);
  });

  it('refuses two files in one request, and a form without a file', async () => {
    const { browser, client } = await signedInBySms(server);
    const before = await imageCount();
    const form = new FormData();
    form.append('avatar', blob(await png()), 'a.png');
    form.append('avatar', blob(await png()), 'b.png');
    const response = await postRaw(browser, '/web/user/update/upload_avatar/', form);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { data: { error_code: number } }).data.error_code).toBe(
      ErrorCode.oneFileOnly,
    );
    await rejectsWith(uploadAvatar(client, { avatar: 'not a file' as unknown as Blob }), 'fileRequired');
    const formEncoded = await postRaw(browser, '/web/user/upload/pic/', 'pic=x', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(((await formEncoded.json()) as { data: { error_code: number } }).data.error_code).toBe(
      ErrorCode.fileRequired,
    );
    expect(await imageCount()).toBe(before);
  });

  it('keeps nothing of an upload cut off mid-stream, and keeps serving', async () => {
    const { browser, client } = await signedInBySms(server);
    const before = await imageCount();
    const boundary = '----portico-truncated';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const file = await png(400, 400);
    const url = new URL(`${server.baseUrl}/web/user/update/upload_avatar/?aid=${AID}`);
    const cookie = [...browser.cookies].map(([name, c]) => `${name}=${c.value}`).join('; ');
    await new Promise<void>((resolve) => {
      const request = httpRequest(url, {
        method: 'POST',
        headers: {
          cookie,
          origin: 'http://localhost:3000',
          'x-forwarded-for': browser.address,
          [CSRF_HEADER]: browser.cookies.get(CSRF_COOKIE)?.value ?? '',
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + file.length + 64),
        },
      });
      request.on('error', () => resolve());
      request.on('response', (response) => {
        response.resume();
        resolve();
      });
      request.write(head);
      request.write(file.subarray(0, Math.floor(file.length / 2)), () => {
        // Gone mid-file, as a closed laptop lid.
        setTimeout(() => {
          request.destroy();
          resolve();
        }, 50);
      });
    });
    // The server settles the aborted request on its own time; it must still answer, and store nothing.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await imageCount()).toBe(before);
    const uploaded = await uploadAvatar<Uploaded>(client, { avatar: blob(await png()) });
    expect(uploaded.review_state).toBe('approved');
    expect(await imageCount()).toBe(before + 1);
  });

  it('refuses an anonymous upload', async () => {
    const client = server.sdkBrowser().client();
    await rejectsWith(uploadAvatar(client, { avatar: blob(await png()) }), 'notLoggedIn');
  });
});

describe('sensitive pictures', () => {
  it('are visible only to their owner until an operator approves them', async () => {
    const owner = await signedInBySms(server);
    const other = await signedInBySms(server);
    const operator = await signedInBySms(server);
    server.app.config.operators.push(operator.account.user_id);

    const pic = await uploadPic<Uploaded>(owner.client, { pic: blob(await png()), is_sensitive: 1 });
    expect(pic.review_state).toBe('pending');
    const get = (browser?: SdkBrowser) => (browser?.fetch ?? fetch)(`${server.baseUrl}${pic.url}`);
    const mine = await get(owner.browser);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('private, no-cache');
    expect((await get(other.browser)).status).toBe(404);
    expect((await get()).status).toBe(404);
    await rejectsWith(downloadImageV2(other.client, { key: pic.key }), 'notFound');
    expect(await downloadImageV2(owner.client, { key: pic.key })).toMatchObject({ review_state: 'pending' });
    expect((await get(operator.browser)).status).toBe(200);

    const queue = await pendingPics<{ pictures: { key: string; owner_id: string }[] }>(operator.client);
    expect(queue.pictures).toContainEqual(
      expect.objectContaining({ key: pic.key, owner_id: owner.account.user_id }),
    );
    await rejectsWith(pendingPics(owner.client), 'notAnOperator');
    await rejectsWith(reviewPic(other.client, { key: pic.key, approve: 1 }), 'notAnOperator');
    await rejectsWith(reviewPic(owner.client, { key: pic.key, approve: 1 }), 'notAnOperator');
    // A sensitive picture is not an avatar until it is approved.
    await rejectsWith(
      (await import('@portico/account-sdk')).updateUserInfo(owner.client, { avatar_key: pic.key }),
      'profileFieldInvalid',
    );
    await reviewPic(operator.client, { key: pic.key, approve: 1 });
    expect(
      (await pendingPics<{ pictures: { key: string }[] }>(operator.client)).pictures.map((p) => p.key),
    ).not.toContain(pic.key);
    expect((await get(other.browser)).status).toBe(200);
    expect((await get()).headers.get('cache-control')).toContain('public');

    const rejected = await uploadPic<Uploaded>(owner.client, { pic: blob(await png()), is_sensitive: 1 });
    await reviewPic(operator.client, { key: rejected.key, approve: 0 });
    expect(await downloadImageV2(owner.client, { key: rejected.key })).toMatchObject({
      review_state: 'rejected',
    });
    expect((await fetch(`${server.baseUrl}${rejected.url}`)).status).toBe(404);
  });

  it('are counted per day: past the quota the upload is refused and nothing is stored', async () => {
    const limited = await startSdkServer({
      profileQuotas: { 'profile.pic': { times: 2, windowSeconds: 86_400 } },
    });
    try {
      const { client, account } = await signedInBySms(limited);
      await uploadPic(client, { pic: blob(await png()) });
      await uploadPic(client, { pic: blob(await png()), is_sensitive: 1 });
      const refused = await rejectsWith(uploadPic(client, { pic: blob(await png()) }), 'updateLimitReached');
      expect(refused.data).toMatchObject({ field: 'pic' });
      const rows = await limited.app.db
        .selectFrom('images')
        .select('key')
        .where('owner_id', '=', account.user_id)
        .execute();
      expect(rows).toHaveLength(2);
      expect((await remainUpdateTimes<{ remain_times: number }>(client, { field: 'pic' })).remain_times).toBe(
        0,
      );
    } finally {
      await limited.close();
    }
  });

  it('a picture sent without is_sensitive is public at once', async () => {
    const { client } = await signedInBySms(server);
    const pic = await uploadPic<Uploaded>(client, { pic: blob(await png()) });
    expect(pic.review_state).toBe('approved');
    expect((await fetch(`${server.baseUrl}${pic.url}`)).status).toBe(200);
  });
});

describe('upload quotas under concurrency', () => {
  let limited: SdkServer;
  beforeAll(async () => {
    const quota = { times: 3, windowSeconds: 86_400 };
    limited = await startSdkServer({ profileQuotas: { 'profile.pic': quota, 'profile.avatar': quota } });
  });
  afterAll(async () => limited?.close());

  const imagesOf = (owner: string, kind: 'pic' | 'avatar') =>
    limited.app.db
      .selectFrom('images')
      .select('key')
      .where('owner_id', '=', owner)
      .where('kind', '=', kind)
      .execute();

  it.each(['pic', 'avatar'] as const)(
    '20 %s uploads at once with a quota of 3: three stored, the rest refused, nothing left over',
    async (kind) => {
      const { client, account } = await signedInBySms(limited);
      const bytes = await png();
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, () =>
          kind === 'pic'
            ? uploadPic<Uploaded>(client, { pic: blob(bytes) })
            : uploadAvatar<Uploaded>(client, { avatar: blob(bytes) }),
        ),
      );
      const stored = results.filter((r) => r.status === 'fulfilled');
      expect(stored).toHaveLength(3);
      for (const result of results)
        if (result.status === 'rejected')
          expect((result.reason as { error_code?: number }).error_code).toBe(ErrorCode.updateLimitReached);
      const kept = (await imagesOf(account.user_id, kind)).map((row) => row.key);
      if (kind === 'pic') {
        expect(kept.sort()).toEqual(stored.map((r) => r.value.key).sort());
      } else {
        // Each avatar replaces the one before: only the profile's own is kept.
        const info = await accountInfo<{ avatar_url: string }>(client);
        expect(kept).toHaveLength(1);
        expect(info.avatar_url).toContain(kept[0]);
      }
    },
  );
});
