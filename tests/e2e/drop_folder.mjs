// Drops a folder on the page as a user's drag and drop does: a `drop` event whose items give a
// directory entry (webkitGetAsEntry), read through createReader().readEntries() and file(), as
// web/page/runs.js strataDroppedFolder reads a real one. A page script cannot build a real
// FileSystemDirectoryEntry, so the entries are plain objects with those members.
/**
 * @param session from setupStrata
 * @param root the folder's name (the first part of every path)
 * @param files [{path: 'root/sub/name', bytes: Buffer}]
 */
export async function dropFolder(session, root, files) {
  await session.page.evaluate(
    ({ rootName, list }) => {
      const dirs = new Map();
      const dir = (path) => {
        if (dirs.has(path)) return dirs.get(path);
        const d = {
          isFile: false,
          isDirectory: true,
          name: path.split('/').pop(),
          fullPath: `/${path}`,
          children: [],
          createReader() {
            let given = false;
            // readEntries hands out the entries, then an empty batch (the end).
            return { readEntries: (ok) => setTimeout(() => ok(given ? [] : ((given = true), d.children))) };
          },
        };
        dirs.set(path, d);
        const at = path.lastIndexOf('/');
        if (at > 0) dir(path.slice(0, at)).children.push(d);
        return d;
      };
      const rootEntry = dir(rootName);
      for (const f of list) {
        const bin = atob(f.b64);
        const u8 = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++) u8[i] = bin.charCodeAt(i);
        const name = f.path.split('/').pop();
        dir(f.path.slice(0, f.path.lastIndexOf('/'))).children.push({
          isFile: true,
          isDirectory: false,
          name,
          fullPath: `/${f.path}`,
          file: (ok) => setTimeout(() => ok(new File([u8], name))),
        });
      }
      const ev = new Event('drop', { bubbles: true, cancelable: true });
      Object.defineProperty(ev, 'dataTransfer', {
        value: { items: [{ webkitGetAsEntry: () => rootEntry }], files: [] },
      });
      document.getElementById('canvas').dispatchEvent(ev);
    },
    { rootName: root, list: files.map((f) => ({ path: f.path, b64: Buffer.from(f.bytes).toString('base64') })) },
  );
}
