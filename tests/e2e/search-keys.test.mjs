// Keys in the search box keep their meaning however fast they come. Dear ImGui reads the
// keyboard once per frame: Ctrl+A and the Backspace after it landing between the same two
// frames used to read as Ctrl+Backspace (the last word deleted, nothing selected), and letters
// typed right after Ctrl+A were dropped (typed with Ctrl still held). The platform layer now
// lets them in a frame's worth at a time (src/platform/browser/key_queue.h). And letters typed
// right after "/" wait for the search box instead of acting as shortcuts (D pans).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { poll, strataSuite } from './lib.mjs';

const WORDS = 'alpha beta gamma';

describe('search box keys', () => {
  let s, page;
  strataSuite((e) => ({ session: s, page } = e));

  const state = () => s.call(() => window.strata.state());
  const boxText = () => s.call(() => window.strata.searchBox().text);
  async function focusBox() {
    await s.focusCanvas(0.6, 0.5);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Slash');
    await poll(async () => (await state()).typing, { message: 'the search box to take the keyboard' });
  }
  async function fill(text) {
    // Whatever an earlier test left, one key at a time (not what is tested here).
    for (let n = (await boxText()).length; n > 0; n--) await page.keyboard.press('Backspace');
    await poll(async () => (await boxText()) === '', { message: 'the box to be empty' });
    await page.keyboard.type(text);
    await poll(async () => (await boxText()) === text, { message: `the box to hold "${text}"` });
    await s.frame();
  }
  // Key events dispatched in one task: nothing can draw a frame between them.
  function burst(keys) {
    return s.call((list) => {
      for (const [type, key, code, ctrl] of list)
        window.dispatchEvent(new KeyboardEvent(type, { key, code, ctrlKey: ctrl, bubbles: true }));
    }, keys);
  }
  const CTRL_A = [
    ['keydown', 'Control', 'ControlLeft', true],
    ['keydown', 'a', 'KeyA', true],
    ['keyup', 'a', 'KeyA', true],
    ['keyup', 'Control', 'ControlLeft', false],
  ];
  const press = (key, code) => [
    ['keydown', key, code, false],
    ['keyup', key, code, false],
  ];

  test('Ctrl+A then Backspace between two frames empties the box', async () => {
    await focusBox();
    await fill(WORDS);
    await burst([...CTRL_A, ...press('Backspace', 'Backspace')]);
    const text = await poll(
      async () => {
        await s.frame();
        const t = await boxText();
        return t !== WORDS && { t };
      },
      { message: 'the box to change' },
    );
    assert.equal(text.t, '', `Ctrl+A selected all, Backspace deleted it (left: "${text.t}")`);
    await poll(async () => !(await state()).searchActive, { message: 'the search to end' });
  });

  test('letters typed right after Ctrl+A replace the text', async () => {
    await focusBox();
    await fill(WORDS);
    await burst([...CTRL_A, ...press('q', 'KeyQ'), ...press('r', 'KeyR')]);
    const text = await poll(
      async () => {
        await s.frame();
        const t = await boxText();
        return t !== WORDS && { t };
      },
      { message: 'the box to change', timeout: 5000 },
    ).catch(async () => ({ t: await boxText() }));
    assert.equal(text.t, 'qr', 'the letters replaced the selection');
  });

  test('letters typed right after / go into the search box', async () => {
    await focusBox();
    await fill('');
    await s.focusCanvas(0.6, 0.5);
    await page.keyboard.press('Escape');
    await s.frame();
    // The box takes the keyboard a couple of frames after "/": these come before that.
    await burst([...press('/', 'Slash'), ...press('r', 'KeyR'), ...press('e', 'KeyE'), ...press('d', 'KeyD')]);
    const text = await poll(
      async () => {
        await s.frame();
        const t = await boxText();
        return t.length >= 3 && { t };
      },
      { message: 'the letters in the box', timeout: 10_000 },
    ).catch(async () => ({ t: await boxText() }));
    assert.equal(text.t, 'red', 'every letter typed after / is in the box');
    assert.equal((await state()).typing, true);
  });

  test('a click right after fast typing lands after the typing, not amid it', async () => {
    await focusBox();
    await fill('alphabet');
    // Three Backspaces and a click on the timeline in one task: the click takes the keyboard
    // from the box, so it must wait until every key before it has been drawn.
    await s.call(
      (keys) => {
        for (const [type, key, code] of keys)
          window.dispatchEvent(new KeyboardEvent(type, { key, code, bubbles: true }));
        const c = document.getElementById('canvas');
        const r = c.getBoundingClientRect();
        const at = { clientX: r.left + r.width * 0.6, clientY: r.top + r.height * 0.6, button: 0, bubbles: true };
        c.dispatchEvent(new MouseEvent('mousedown', at));
        window.dispatchEvent(new MouseEvent('mouseup', at));
      },
      [...press('Backspace', 'Backspace'), ...press('Backspace', 'Backspace'), ...press('Backspace', 'Backspace')],
    );
    const after = await poll(
      async () => {
        await s.frame();
        const st = await state();
        return !st.typing && { st, t: await boxText() };
      },
      { message: 'the click to take the keyboard from the box' },
    );
    assert.equal(after.t, 'alpha', 'all three Backspaces went into the box before the click');
  });

  test('Ctrl+A and Backspace from the keyboard empty the box, try after try', async () => {
    for (let i = 0; i < 6; i++) {
      await focusBox();
      await fill(WORDS);
      // No frame is waited for between the keys: they land in one frame or two, as it happens.
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');
      const t = await poll(
        async () => {
          await s.frame();
          const x = await boxText();
          return x !== WORDS && { x };
        },
        { message: `try ${i}: the box to change` },
      );
      assert.equal(t.x, '', `try ${i}: left "${t.x}"`);
    }
    await page.keyboard.press('Escape');
    s.assertNoErrors();
  });
});
