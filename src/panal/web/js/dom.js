// Small DOM helpers shared by the pages.

export function escapeHtml(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

// The attributes that name a control across re-renders (a re-render makes new elements).
const IDENTITY = ["name", "value", "data-action", "data-piece", "data-ply", "data-export", "data-copy", "data-dest"];

function identify(element) {
  const parts = [];
  for (const attribute of IDENTITY) {
    if (element.hasAttribute(attribute)) parts.push(`[${attribute}="${CSS.escape(element.getAttribute(attribute))}"]`);
  }
  return parts.length ? element.tagName.toLowerCase() + parts.join("") : null;
}

/** Run `render` (which replaces `root`'s content) and give the keyboard focus back to the
 *  control that had it, so a re-render never drops a keyboard user to <body>. */
export function keepingFocus(root, render) {
  const active = document.activeElement;
  const selector = active && active !== document.body && root.contains(active) ? identify(active) : null;
  const typed = selector && "selectionStart" in active ? { start: active.selectionStart, end: active.selectionEnd } : null;
  render();
  if (!selector) return;
  const again = root.querySelector(selector);
  if (!again) return;
  again.focus({ preventScroll: true });
  if (typed && "setSelectionRange" in again) {
    try {
      again.setSelectionRange(typed.start, typed.end);
    } catch {
      // Inputs without a text selection (number, checkbox…).
    }
  }
}

/** Draw again only the part of a page that a load changed (`root`'s element matching
 *  `selector`), so the rest (a form the reader is typing into, a <details> they opened) stays
 *  as it is; `renderAll` when the part is not on the page. */
export function drawPart(root, selector, html, renderAll) {
  const part = root.querySelector(selector);
  if (!part) return renderAll();
  keepingFocus(part, () => {
    part.innerHTML = html;
  });
}
