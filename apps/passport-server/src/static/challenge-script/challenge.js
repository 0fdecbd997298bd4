/**
 * Portico's challenge script: served by the passport server at /vc/sdk/primary and /vc/sdk/backup,
 * loaded by @portico/captcha-loader. It registers window.PorticoChallenge = { version, show }.
 * show(options) draws the overlay (a modal dialog over a mask), fetches a puzzle, takes the answer by
 * mouse, touch or keyboard, and resolves { status: 'passed', challengeId, pass } or { status: 'closed' }.
 * When the drawn puzzle names a third-party provider (Turnstile, hCaptcha, GeeTest), its widget is
 * rendered through options.mountProvider (the loader's) and its token sent as provider_token.
 * Plain modern JS, no dependencies. The server fills in CONFIG (paths and CSRF names).
 */
(() => {
  const CONFIG = __PORTICO_CHALLENGE_CONFIG__;

  const TEXT = {
    zh: {
      title: '安全验证',
      close: '关闭',
      refresh: '换一张',
      submit: '确认',
      loading: '加载中…',
      slide: '拖动滑块，使拼图块嵌入缺口。也可用左右方向键移动，回车提交。',
      slider: '拼图位置',
      whirl: '拖动滑块，把图片转正。也可用左右方向键旋转，回车提交。',
      rotation: '旋转角度',
      degrees: (d) => `${d} 度`,
      text: '请输入图中的字符（不区分大小写），回车提交。',
      textLabel: '图中的字符',
      threeD: '用鼠标或手指点击目标；或用方向键移动十字准星，回车选择。',
      picture: '验证图片',
      wrong: (n) => `验证未通过，还可尝试 ${n} 次`,
      newPuzzle: '验证未通过，已换一张新图',
      expired: '验证已过期，请关闭后重试',
      passed: '验证通过',
      failed: '网络异常，请稍后重试',
      accessible: '看不到图片？改用无图验证',
      accessibleTitle: '无图验证',
      accessibleHint:
        '这项验证不需要看图：浏览器会自动完成一段计算，并等待一小段时间。您无需任何操作，完成后会自动继续。',
      accessibleWait: (s) => `正在验证，约需 ${s} 秒，请稍候…`,
      accessibleAgain: '换回图片验证',
      working: '正在进行浏览器校验…',
      busy: '验证请求过于频繁，请稍后再试',
      provider: '第三方安全验证',
      providerHint: '请完成下方的安全验证，完成后会自动继续。',
      providerFirst: '请先完成下方的第三方安全验证',
      providerRefused: '第三方安全验证未通过，请重新完成',
      providerFallback: '第三方安全验证无法加载，已改用图片验证',
      providerDown: '第三方安全验证无法加载，请稍后重试，或改用无图验证',
    },
    en: {
      title: 'Security check',
      close: 'Close',
      refresh: 'New puzzle',
      submit: 'Submit',
      loading: 'Loading…',
      slide: 'Drag the slider so the piece fits the gap. Left and right arrow keys move it; Enter submits.',
      slider: 'Piece position',
      whirl: 'Drag the slider to turn the picture upright. Left and right arrow keys turn it; Enter submits.',
      rotation: 'Rotation',
      degrees: (d) => `${d} degrees`,
      text: 'Type the characters in the picture (case does not matter); Enter submits.',
      textLabel: 'Characters in the picture',
      threeD:
        'Click or tap the object named above, or move the crosshair with the arrow keys and press Enter.',
      picture: 'Puzzle picture',
      wrong: (n) => `Not quite. ${n} tries left.`,
      newPuzzle: 'Not quite. Here is a new puzzle.',
      expired: 'This check has expired; close it and try again.',
      passed: 'Passed',
      failed: 'Network error; try again later',
      accessible: 'Cannot see the picture? Use the check without a picture',
      accessibleTitle: 'Check without a picture',
      accessibleHint:
        'This check needs no picture: your browser does a short computation and waits a little. There is nothing to do; it continues by itself when done.',
      accessibleWait: (s) => `Checking; this takes about ${s} seconds. Please wait…`,
      accessibleAgain: 'Back to the picture puzzle',
      working: 'Checking your browser…',
      busy: 'Too many checks; try again later',
      provider: 'Third-party security check',
      providerHint: 'Complete the check below; it continues by itself when done.',
      providerFirst: 'Complete the third-party check below first',
      providerRefused: 'The third-party check was not accepted; complete it again',
      providerFallback: 'The third-party check could not load; here is a picture puzzle instead',
      providerDown:
        'The third-party check could not load. Try again later, or use the check without a picture',
    },
  };

  const STYLE = `
.pc-mask{position:fixed;inset:0;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center;z-index:2147483000;font:14px/1.5 system-ui,sans-serif}
.pc-dialog{background:#fff;color:#222;border-radius:8px;padding:16px;width:min(360px,94vw);box-shadow:0 8px 30px rgba(0,0,0,.3)}
.pc-head{display:flex;justify-content:space-between;align-items:center;margin-bottom:8px}
.pc-head h2{font-size:16px;margin:0}
.pc-dialog button{font:inherit;cursor:pointer}
.pc-x{border:0;background:none;font-size:20px;line-height:1;padding:4px 8px}
.pc-stage{position:relative;width:100%;user-select:none;touch-action:none}
.pc-stage img{display:block;width:100%;height:auto;-webkit-user-drag:none}
.pc-piece{position:absolute;left:0;top:0}
.pc-stage .pc-piece{width:auto}
.pc-round{border-radius:50%;width:70%!important;margin:0 auto}
.pc-track{position:relative;height:40px;margin-top:10px;background:#eef1f5;border-radius:20px;touch-action:none}
.pc-handle{position:absolute;top:0;left:0;width:56px;height:40px;border-radius:20px;border:0;background:#2f6fed;color:#fff;font-size:18px}
.pc-handle:focus-visible,.pc-stage:focus-visible,.pc-dialog input:focus-visible,.pc-dialog button:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
.pc-cross{position:absolute;width:22px;height:22px;margin:-11px 0 0 -11px;border:2px solid #f5a623;border-radius:50%;pointer-events:none}
.pc-row{display:flex;gap:8px;margin-top:10px}
.pc-row input{flex:1;padding:6px 8px;font:inherit;text-transform:uppercase}
.pc-foot{display:flex;justify-content:space-between;align-items:center;margin-top:10px;min-height:24px}
.pc-status{font-size:13px;color:#b3261e}
.pc-hint{font-size:13px;color:#555;margin:0 0 8px}
.pc-prompt{font-weight:600;margin:0 0 6px}
.pc-alt{border:0;background:none;color:#1a56c4;text-decoration:underline;padding:0;margin-top:8px;font-size:13px}
.pc-provider{margin-top:10px;min-height:24px}
.pc-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}`;

  let uid = 0;
  const el = (tag, attrs = {}, children = []) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === 'text') node.textContent = v;
      else node.setAttribute(k, String(v));
    }
    for (const child of children) node.append(child);
    return node;
  };

  function cookie(name) {
    for (const part of document.cookie.split(';')) {
      const [k, ...v] = part.trim().split('=');
      if (k === name) return decodeURIComponent(v.join('='));
    }
    return '';
  }

  async function post(options, path, form) {
    const query = new URLSearchParams({ aid: options.aid || '', language: options.language || 'zh' });
    const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    const token = cookie(CONFIG.csrfCookie);
    if (token) headers[CONFIG.csrfHeader] = token;
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) if (v !== undefined && v !== '') body.append(k, String(v));
    const response = await fetch(`${(options.host || '').replace(/\/+$/, '')}${path}?${query}`, {
      method: 'POST',
      credentials: 'include',
      headers,
      body,
    });
    const json = await response.json();
    if (!json || (json.message !== 'success' && json.message !== 'error'))
      throw new Error(`HTTP ${response.status}`);
    return json;
  }

  // The proof of work (ALTCHA v2, PBKDF2/SHA-256): derive PBKDF2(nonce ‖ counter, salt, cost) for
  // counters 0, 1, 2, … until the key starts with keyPrefix; the counter is below `limit`. WebCrypto's
  // PBKDF2 is the browser's native code, so a phone pays per attempt what a script's CPU pays. Up to four
  // workers take interleaved counters; where a worker cannot start (a strict CSP), it runs on the page in
  // slices.
  async function powSearch({ parameters, limit, start, step }, pause) {
    const bytes = (hex) => Uint8Array.from((hex.match(/../g) || []).map((b) => Number.parseInt(b, 16)));
    const nonce = bytes(parameters.nonce);
    const salt = bytes(parameters.salt);
    const prefix = bytes(parameters.keyPrefix);
    const password = new Uint8Array(nonce.length + 4);
    password.set(nonce);
    const view = new DataView(password.buffer);
    const bits = (parameters.keyLength || 32) * 8;
    outer: for (let n = start; n < limit; n += step) {
      if (pause && ((n - start) / step) % 25 === 0) await pause();
      view.setUint32(nonce.length, n, false);
      const key = await crypto.subtle.importKey('raw', password, 'PBKDF2', false, ['deriveBits']);
      const derived = new Uint8Array(
        await crypto.subtle.deriveBits(
          { name: 'PBKDF2', salt, iterations: parameters.cost, hash: 'SHA-256' },
          key,
          bits,
        ),
      );
      for (let i = 0; i < prefix.length; i++) if (derived[i] !== prefix[i]) continue outer;
      return { counter: n, derivedKey: Array.from(derived, (b) => b.toString(16).padStart(2, '0')).join('') };
    }
    return null;
  }

  function payloadOf(pow, solution) {
    if (!solution) throw new Error('the proof of work has no solution');
    const { parameters, signature } = pow;
    return btoa(JSON.stringify({ challenge: { parameters, signature }, solution }));
  }

  function solvePow(pow) {
    if (!pow) return Promise.resolve('');
    const limit = Math.min(Number(pow.limit) || 0xffffffff, 0xffffffff);
    const job = { parameters: pow.parameters, limit };
    const onPage = () =>
      powSearch({ ...job, start: 0, step: 1 }, () => new Promise((r) => setTimeout(r, 0))).then((solution) =>
        payloadOf(pow, solution),
      );
    const count = Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2));
    const workers = [];
    try {
      const url = URL.createObjectURL(
        new Blob([`${powSearch}\nonmessage = async (e) => postMessage(await powSearch(e.data));`], {
          type: 'text/javascript',
        }),
      );
      for (let i = 0; i < count; i++) workers.push(new Worker(url));
      URL.revokeObjectURL(url);
    } catch {
      for (const worker of workers) worker.terminate();
      return onPage();
    }
    return new Promise((resolve, reject) => {
      let done = false;
      let finished = 0;
      const stop = () => {
        done = true;
        for (const worker of workers) worker.terminate();
      };
      workers.forEach((worker, i) => {
        worker.onmessage = (event) => {
          if (done) return;
          finished++;
          if (event.data) {
            stop();
            resolve(payloadOf(pow, event.data));
          } else if (finished === workers.length) {
            stop();
            reject(new Error('the proof of work has no solution'));
          }
        };
        worker.onerror = (event) => {
          event.preventDefault();
          if (done) return;
          stop();
          onPage().then(resolve, reject);
        };
        worker.postMessage({ ...job, start: i, step: workers.length });
      });
    });
  }

  function show(options) {
    if (!options || typeof options.challengeId !== 'string') {
      return Promise.reject(new TypeError('PorticoChallenge.show needs options.challengeId'));
    }
    const t = String(options.language || 'zh')
      .toLowerCase()
      .startsWith('en')
      ? TEXT.en
      : TEXT.zh;
    return new Promise((resolve, reject) => {
      uid += 1;
      const ids = { title: `pc-title-${uid}`, hint: `pc-hint-${uid}` };
      const opener = document.activeElement;
      const style = el('style', { text: STYLE });
      const status = el('p', { class: 'pc-status', role: 'status', 'aria-live': 'polite' });
      const body = el('div');
      const closeButton = el('button', { type: 'button', class: 'pc-x', 'aria-label': t.close, text: '×' });
      const refreshButton = el('button', { type: 'button', text: t.refresh });
      // The route for people who cannot see the puzzle: proof of work and a longer wait, never a dead end.
      const altButton = el('button', { type: 'button', class: 'pc-alt', text: t.accessible });
      const heading = el('h2', { id: ids.title, text: t.title });
      // The provider's widget lives outside the puzzle's body: moving an iframe would reload it.
      const providerBox = el('div', {
        class: 'pc-provider',
        role: 'group',
        'aria-label': t.provider,
        hidden: '',
      });
      const dialog = el(
        'div',
        {
          class: 'pc-dialog',
          role: 'dialog',
          'aria-modal': 'true',
          'aria-labelledby': ids.title,
          'aria-describedby': ids.hint,
        },
        [
          el('div', { class: 'pc-head' }, [heading, closeButton]),
          body,
          providerBox,
          el('div', { class: 'pc-foot' }, [status, refreshButton]),
          altButton,
        ],
      );
      const mask = el('div', { class: 'pc-mask', 'data-portico-challenge': options.subtype || '' }, [
        style,
        dialog,
      ]);
      let busy = false;
      /** A picture is being drawn (part of busy): the check without a picture may take over. */
      let loading = false;
      let done = false;
      let current = null;
      let mode = 'puzzle';
      /** Bumped on every switch between the puzzle and the check without a picture. */
      let generation = 0;
      /** The provider's widget (a promise of it), once a drawn puzzle names one. */
      let widgetReady = null;
      /** A token the server never sent on (the picture was wrong first): still good for the next try. */
      let unspentToken = null;
      /** The answer waiting for the widget's token; a newer answer replaces its fields. */
      let waiting = null;
      /** Set when a provider behind the picture could not run: rounds are drawn without it. */
      let withoutProvider = false;
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      const codeOf = (result) => Number(result?.data?.error_code);
      const refusal = (result) => ([1406, 1407].includes(codeOf(result)) ? t.busy : t.expired);
      /** Starts the proof of work of the current try in the background. */
      const work = (puzzle) => {
        puzzle.ready = false;
        puzzle.work = solvePow(puzzle.pow);
        puzzle.work.then(
          () => {
            puzzle.ready = true;
          },
          () => {},
        );
      };

      function finish(result, error) {
        if (done) return;
        done = true;
        document.removeEventListener('keydown', onKey, true);
        widgetReady?.then((widget) => widget.remove()).catch(() => {});
        mask.remove();
        if (opener && typeof opener.focus === 'function') opener.focus();
        if (error) reject(error);
        else resolve(result);
      }

      function onKey(event) {
        if (event.key === 'Escape') {
          event.preventDefault();
          finish({ status: 'closed' });
        } else if (event.key === 'Tab') {
          // Keep focus inside the dialog while it is open.
          const focusable = [...dialog.querySelectorAll('button,input,[tabindex="0"]')];
          const first = focusable[0];
          const last = focusable[focusable.length - 1];
          if (event.shiftKey && document.activeElement === first) {
            event.preventDefault();
            last.focus();
          } else if (!event.shiftKey && document.activeElement === last) {
            event.preventDefault();
            first.focus();
          }
        }
      }

      function mountWidget(provider) {
        providerBox.hidden = false;
        widgetReady = options.mountProvider
          ? options.mountProvider(providerBox, provider)
          : Promise.reject(new Error('this page loaded the challenge script without a mountProvider'));
        widgetReady.catch(() => providerFailed(provider));
      }

      /** The widget could not run: behind the picture, fall back to it; instead of it, say so. */
      function providerFailed(provider) {
        if (!widgetReady || done) return;
        widgetReady = null;
        waiting = null;
        providerBox.replaceChildren();
        providerBox.hidden = true;
        if (provider.mode === 'behind') {
          withoutProvider = true;
          busy = false;
          load(false, t.providerFallback);
        } else {
          body.replaceChildren();
          status.textContent = t.providerDown;
          altButton.focus();
        }
      }

      async function providerToken() {
        if (unspentToken) {
          const token = unspentToken;
          unspentToken = null;
          return token;
        }
        const widget = await widgetReady;
        if (!widget) throw new Error('no provider widget');
        return widget.token();
      }

      async function answer(fields) {
        if (busy) return;
        const puzzle = current;
        let token;
        if (puzzle.provider) {
          if (waiting) {
            waiting.fields = fields;
            return;
          }
          const slot = { fields };
          waiting = slot;
          // Instead of the picture, the hint above already asks for the widget; keep the status's news.
          if (puzzle.provider.mode === 'behind') status.textContent = t.providerFirst;
          try {
            token = await providerToken();
          } catch {
            if (waiting === slot) providerFailed(puzzle.provider);
            return;
          }
          if (waiting !== slot || done || current !== puzzle || mode !== 'puzzle' || busy) {
            // Not sent: the next answer may use it.
            unspentToken = token;
            return;
          }
          waiting = null;
          status.textContent = '';
          fields = { ...slot.fields, provider_token: token };
        }
        busy = true;
        try {
          if (!puzzle.ready) status.textContent = t.working;
          const pow = await puzzle.work;
          const result = await post(options, CONFIG.verifyPath, {
            challenge_id: options.challengeId,
            fp: options.fp,
            pow,
            ...fields,
          });
          if (result.message === 'success') {
            status.textContent = t.passed;
            finish({ status: 'passed', challengeId: options.challengeId, pass: result.data.pass });
            return;
          }
          if (result.data?.pow) {
            puzzle.pow = result.data.pow;
            work(puzzle);
          }
          // 1408: the provider was asked and refused, so its token is spent; otherwise it was never sent.
          const refusedByProvider = codeOf(result) === 1408;
          if (token && refusedByProvider) (await widgetReady)?.reset();
          else if (token) unspentToken = token;
          const left = codeOf(result) === 1404 ? 0 : Number(result.data?.tries_left);
          if (left > 0) {
            busy = false;
            render(current);
            status.textContent = refusedByProvider ? t.providerRefused : t.wrong(left);
          } else {
            busy = false;
            await load(false, refusedByProvider ? t.providerRefused : t.newPuzzle);
          }
        } catch (error) {
          busy = false;
          finish(null, error);
        }
      }

      /** A horizontal slider (mouse, touch, keyboard) over [0, max]; calls onMove(value) and onDrop(). */
      function slider(label, max, onMove, onDrop, valueText) {
        const handle = el('button', {
          type: 'button',
          class: 'pc-handle',
          role: 'slider',
          'aria-label': label,
          'aria-valuemin': 0,
          'aria-valuemax': Math.round(max),
          'aria-valuenow': 0,
          text: '⇆',
        });
        const track = el('div', { class: 'pc-track' }, [handle]);
        let value = 0;
        let start = null;
        const set = (v) => {
          value = Math.max(0, Math.min(max, v));
          const room = track.clientWidth - handle.offsetWidth;
          handle.style.left = `${max ? (value / max) * Math.max(0, room) : 0}px`;
          handle.setAttribute('aria-valuenow', String(Math.round(value)));
          if (valueText) handle.setAttribute('aria-valuetext', valueText(Math.round(value)));
          onMove(value);
        };
        const scale = () => max / Math.max(1, track.clientWidth - handle.offsetWidth);
        handle.addEventListener('pointerdown', (event) => {
          event.preventDefault();
          handle.setPointerCapture(event.pointerId);
          start = { x: event.clientX, value };
        });
        handle.addEventListener('pointermove', (event) => {
          if (start) set(start.value + (event.clientX - start.x) * scale());
        });
        const release = () => {
          if (!start) return;
          start = null;
          onDrop();
        };
        handle.addEventListener('pointerup', release);
        handle.addEventListener('pointercancel', release);
        handle.addEventListener('keydown', (event) => {
          const step = (event.shiftKey ? 5 : 1) * (max > 300 ? 3 : 4);
          if (event.key === 'ArrowRight' || event.key === 'ArrowUp') set(value + step);
          else if (event.key === 'ArrowLeft' || event.key === 'ArrowDown') set(value - step);
          else if (event.key === 'Home') set(0);
          else if (event.key === 'Enter') onDrop();
          else return;
          event.preventDefault();
        });
        return { track, handle, set };
      }

      function render(puzzle) {
        body.replaceChildren();
        if (puzzle.provider?.mode === 'instead') {
          // The widget is the whole check: its token goes to the server as soon as it is earned.
          body.append(el('p', { class: 'pc-hint', id: ids.hint, text: t.providerHint }));
          answer({});
          return;
        }
        const picture = el('img', {
          src: puzzle.image,
          alt: t.picture,
          width: puzzle.width,
          height: puzzle.height,
          draggable: 'false',
        });
        const stage = el('div', { class: 'pc-stage' }, [picture]);
        const hint = el('p', { class: 'pc-hint', id: ids.hint });
        let focusTarget = null;
        if (puzzle.subtype === 'slide') {
          hint.textContent = t.slide;
          const piece = el('img', { src: puzzle.piece, alt: '', class: 'pc-piece', draggable: 'false' });
          stage.append(piece);
          const fit = () => {
            const k = picture.clientWidth / puzzle.width || 1;
            piece.style.width = `${puzzle.piece_width * k}px`;
            piece.style.top = `${puzzle.piece_y * k}px`;
            return k;
          };
          let x = 0;
          let begin = 0;
          let trace = [];
          const s = slider(
            t.slider,
            puzzle.width - puzzle.piece_width,
            (v) => {
              if (!trace.length) {
                begin = performance.now();
                trace.push([0, 0, 0]);
              }
              x = v;
              piece.style.left = `${v * fit()}px`;
              const last = trace[trace.length - 1][2];
              trace.push([
                Math.round(v * 10) / 10,
                0,
                Math.max(last + 1, Math.round(performance.now() - begin)),
              ]);
            },
            () => {
              const sent = trace;
              trace = [];
              if (sent.length > 1) answer({ x: Math.round(x * 10) / 10, trace: JSON.stringify(sent) });
            },
            null,
          );
          body.append(hint, stage, s.track);
          requestAnimationFrame(fit);
          focusTarget = s.handle;
        } else if (puzzle.subtype === 'whirl') {
          hint.textContent = t.whirl;
          picture.classList.add('pc-round');
          let angle = 0;
          const s = slider(
            t.rotation,
            360,
            (v) => {
              angle = v;
              picture.style.transform = `rotate(${v}deg)`;
            },
            () => answer({ angle: Math.round(angle) }),
            t.degrees,
          );
          body.append(hint, stage, s.track);
          focusTarget = s.handle;
        } else if (puzzle.subtype === 'text') {
          hint.textContent = t.text;
          const inputId = `pc-input-${uid}`;
          const input = el('input', {
            id: inputId,
            type: 'text',
            autocomplete: 'off',
            autocapitalize: 'characters',
            spellcheck: 'false',
            maxlength: 16,
          });
          const submit = el('button', { type: 'button', text: t.submit });
          const go = () => input.value.trim() && answer({ text: input.value.trim() });
          input.addEventListener('keydown', (event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              go();
            }
          });
          submit.addEventListener('click', go);
          body.append(
            hint,
            stage,
            el('label', { for: inputId, class: 'pc-sr', text: t.textLabel }),
            el('div', { class: 'pc-row' }, [input, submit]),
          );
          focusTarget = input;
        } else {
          hint.textContent = t.threeD;
          const prompt = el('p', { class: 'pc-prompt', text: puzzle.prompt || '' });
          const cross = el('div', { class: 'pc-cross', hidden: '' });
          stage.append(cross);
          stage.setAttribute('tabindex', '0');
          stage.setAttribute('role', 'application');
          stage.setAttribute('aria-label', `${puzzle.prompt || ''}. ${t.threeD}`);
          const at = { x: puzzle.width / 2, y: puzzle.height / 2 };
          const place = () => {
            const k = picture.clientWidth / puzzle.width || 1;
            cross.hidden = false;
            cross.style.left = `${at.x * k}px`;
            cross.style.top = `${at.y * k}px`;
          };
          stage.addEventListener('click', (event) => {
            const box = picture.getBoundingClientRect();
            const k = puzzle.width / box.width;
            answer({
              x: Math.round((event.clientX - box.left) * k),
              y: Math.round((event.clientY - box.top) * k),
            });
          });
          stage.addEventListener('keydown', (event) => {
            const step = event.shiftKey ? 30 : 10;
            const moves = {
              ArrowLeft: [-step, 0],
              ArrowRight: [step, 0],
              ArrowUp: [0, -step],
              ArrowDown: [0, step],
            };
            if (moves[event.key]) {
              at.x = Math.max(0, Math.min(puzzle.width, at.x + moves[event.key][0]));
              at.y = Math.max(0, Math.min(puzzle.height, at.y + moves[event.key][1]));
              place();
            } else if (event.key === 'Enter' || event.key === ' ') {
              answer({ x: Math.round(at.x), y: Math.round(at.y) });
            } else return;
            event.preventDefault();
          });
          stage.addEventListener('focus', place);
          body.append(prompt, hint, stage);
          focusTarget = stage;
        }
        if (focusTarget) focusTarget.focus();
      }

      async function load(keepStatus, message) {
        if (busy) return;
        busy = true;
        loading = true;
        const mine = generation;
        if (!keepStatus) status.textContent = message || '';
        if (!body.firstChild) body.append(el('p', { text: t.loading }));
        try {
          const result = await post(options, CONFIG.challengePath, {
            challenge_id: options.challengeId,
            fp: options.fp,
            language: options.language,
            without_provider: withoutProvider ? '1' : undefined,
          });
          loading = false;
          // The person chose the check without a picture while this one was drawn: it has the overlay now.
          if (generation !== mine) return;
          busy = false;
          if (result.message !== 'success') {
            status.textContent = refusal(result);
            body.replaceChildren();
            closeButton.focus();
            return;
          }
          current = result.data;
          waiting = null;
          work(current);
          if (current.provider && !widgetReady) mountWidget(current.provider);
          render(current);
        } catch (error) {
          loading = false;
          if (generation !== mine) return;
          busy = false;
          finish(null, error);
        }
      }

      /** The check without a picture: the same proof of work and a wait, announced in the live region. */
      async function accessible() {
        // A picture still on its way does not hold the person back (someone who cannot see it asks at
        // once): its answer is dropped when it comes. A try being checked does.
        if (busy && !loading) return;
        busy = true;
        mode = 'accessible';
        const mine = ++generation;
        const live = () => !done && generation === mine;
        altButton.textContent = t.accessibleAgain;
        refreshButton.hidden = true;
        providerBox.hidden = true;
        waiting = null;
        body.replaceChildren(
          el('p', { class: 'pc-prompt', text: t.accessibleTitle }),
          el('p', { class: 'pc-hint', id: ids.hint, text: t.accessibleHint }),
        );
        try {
          const drawn = await post(options, CONFIG.challengePath, {
            challenge_id: options.challengeId,
            fp: options.fp,
            language: options.language,
            mode: 'accessible',
          });
          if (!live()) return;
          if (drawn.message !== 'success') {
            busy = false;
            status.textContent = refusal(drawn);
            return;
          }
          const started = Date.now();
          const wait = Number(drawn.data.wait) || 0;
          status.textContent = t.accessibleWait(wait);
          const pow = await solvePow(drawn.data.pow);
          let left = wait * 1000 - (Date.now() - started);
          for (let round = 0; round < 5 && live(); round++) {
            if (left > 0) await sleep(left + 200);
            if (!live()) return;
            const result = await post(options, CONFIG.verifyPath, {
              challenge_id: options.challengeId,
              fp: options.fp,
              pow,
            });
            if (result.message === 'success') {
              status.textContent = t.passed;
              finish({ status: 'passed', challengeId: options.challengeId, pass: result.data.pass });
              return;
            }
            if (codeOf(result) !== 1405) break;
            left = (Number(result.data.wait) || 1) * 1000;
          }
          if (!live()) return;
          busy = false;
          status.textContent = t.expired;
        } catch (error) {
          busy = false;
          finish(null, error);
        }
      }

      altButton.addEventListener('click', () => {
        if (mode === 'puzzle') {
          accessible();
          return;
        }
        mode = 'puzzle';
        generation++;
        busy = false;
        altButton.textContent = t.accessible;
        refreshButton.hidden = false;
        providerBox.hidden = !widgetReady;
        body.replaceChildren();
        load(false);
      });
      closeButton.addEventListener('click', () => finish({ status: 'closed' }));
      refreshButton.addEventListener('click', () => load(false));
      document.addEventListener('keydown', onKey, true);
      (document.body || document.documentElement).append(mask);
      load(false);
    });
  }

  window.PorticoChallenge = { version: CONFIG.version, show };
})();
