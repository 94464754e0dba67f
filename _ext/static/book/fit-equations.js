/* Display equations that fit their column (see _ext/website.py).
 *
 * MathJax 3 cannot break a long display over lines, and a display wider than
 * its column would run under its equation number or off a phone's screen.
 * A display wider than its column, in this order:
 *  1. shrinks beside its number, down to BESIDE of its size;
 *  2. breaks where its author put a wide space between statements (a
 *     top-level \qquad, or \quad before a \text{...} such as "subject to"),
 *     one statement a line, and tries again;
 *  3. moves its number to a line of its own, under it on the right, and
 *     shrinks to the whole column, down to SMALLEST of its size;
 *  4. past that, keeps that size and scrolls sideways, its edge faded where
 *     there is more (data-more, book.css).
 * Fitted again whenever its column changes width (a turned phone, a resized
 * window, a solution opened), from the display as written. A display notes
 * the width it was fitted to (data-fit-width), and data-fitting while it is
 * typeset again, which tests/test_website.py waits for.
 */
(function () {
  "use strict";
  var BESIDE = 0.8;
  var SMALLEST = 0.7;

  // A display's TeX broken over lines: at each top-level \qquad, or \quad
  // followed by \text{...} ("subject to"), one statement a line; failing
  // those, before each relation after the first (=, <, >, \le, \ge, \approx,
  // \equiv, \propto), the lines aligned at the relations. Top level: outside
  // braces, environments and \left...\right. Null where there is no break.
  var RELATIONS = /^(le|leq|ge|geq|approx|equiv|propto)$/;
  // An unnumbered display written \begin{equation*}...\end{equation*} (so
  // that JupyterLab, which numbers every $$ display, leaves it unnumbered
  // too) breaks as its content does.
  var UNNUMBERED = /^\s*\\begin\{equation\*\}([\s\S]*)\\end\{equation\*\}\s*$/;
  function breakTeX(tex) {
    var unnumbered = UNNUMBERED.exec(tex);
    if (unnumbered) tex = unnumbered[1];
    var statements = [], relations = [], depth = 0, i = 0;
    while (i < tex.length) {
      var rest = tex.slice(i);
      var command = /^\\([a-zA-Z]+)/.exec(rest);
      if (command) {
        var name = command[1];
        if (name === "begin" || name === "left") depth++;
        else if (name === "end" || name === "right") depth--;
        else if (depth === 0 && name === "qquad")
          statements.push([i, i + command[0].length]);
        else if (depth === 0 && name === "quad" && /^\\quad\s*\\text\{/.test(rest))
          statements.push([i, i + command[0].length]);
        else if (depth === 0 && RELATIONS.test(name)) relations.push(i);
        i += command[0].length;
      } else if (rest[0] === "\\") i += 2; // \{, \}, \, and the like
      else {
        if (rest[0] === "{") depth++;
        else if (rest[0] === "}") depth--;
        else if (depth === 0 && "=<>".indexOf(rest[0]) >= 0) relations.push(i);
        i++;
      }
    }
    if (statements.length) return gathered(tex, statements);
    if (relations.length > 1) return aligned(tex, relations);
    return null;
  }

  function gathered(tex, cuts) {
    var lines = [], start = 0;
    cuts.concat([[tex.length, tex.length]]).forEach(function (cut) {
      var line = tex.slice(start, cut[0]).trim();
      start = cut[1];
      var previous = lines[lines.length - 1];
      // a lone \text{and} or \text{i.e.} starts the line after it
      if (previous !== undefined && /^\\text\{[^{}]*\}$/.test(previous))
        lines[lines.length - 1] = previous + "\\quad " + line;
      else if (line) lines.push(line);
    });
    if (lines.length < 2) return null;
    return "\\begin{gathered}" + lines.join("\\\\") + "\\end{gathered}";
  }

  function aligned(tex, at) {
    var lines = [tex.slice(0, at[0]).trim() + " &"];
    at.forEach(function (start, k) {
      var line = tex.slice(start, at[k + 1] || tex.length).trim();
      lines[k] += line;
      if (k + 1 < at.length) lines.push("&");
    });
    return "\\begin{aligned}" + lines.join("\\\\") + "\\end{aligned}";
  }

  // Typeset a display again from other TeX, one display at a time as MathJax
  // asks (its typeset calls must not overlap).
  var queue = Promise.resolve();
  function typesetAs(display, tex, broken) {
    display.dataset.fitting = "yes";
    queue = queue.then(function () {
      var container = display.querySelector(":scope > mjx-container");
      MathJax.typesetClear([display]);
      container.replaceWith(document.createTextNode("\\[" + tex + "\\]"));
      return MathJax.typesetPromise([display]).then(function () {
        delete display.dataset.fitting;
        if (broken) display.dataset.broken = "yes";
        else delete display.dataset.broken;
      });
    });
    return queue;
  }

  // Scale the maths to fit its box, down to `smallest`; return the scale.
  function shrink(container, size, smallest) {
    var scale = 1;
    container.style.fontSize = container.dataset.fontSize;
    // widths round to pixels: a second or third try closes the last one
    for (var i = 0; i < 3 && container.scrollWidth > container.clientWidth; i++) {
      scale = Math.max(
        smallest,
        (scale * (container.clientWidth - 1)) / container.scrollWidth
      );
      container.style.fontSize = size * scale + "px";
      if (scale === smallest) break;
    }
    return scale;
  }

  function layOut(display) {
    var container = display.querySelector(":scope > mjx-container");
    if (container.dataset.fontSize === undefined)
      container.dataset.fontSize = container.style.fontSize; // MathJax's own
    display.classList.remove("equation-number-below");
    container.classList.remove("equation-scaled", "equation-scrolls");
    delete container.dataset.more;
    container.style.fontSize = container.dataset.fontSize;
    var size = parseFloat(getComputedStyle(container).fontSize);
    var scale = shrink(container, size, BESIDE);
    var fits = container.scrollWidth <= container.clientWidth;
    return {container: container, size: size, scale: scale, fits: fits};
  }

  function finish(display, fitted) {
    var container = fitted.container, scale = fitted.scale;
    if (!fitted.fits) {
      if (display.querySelector(":scope > .eqno"))
        display.classList.add("equation-number-below");
      scale = shrink(container, fitted.size, SMALLEST);
    }
    container.dataset.scale = scale.toFixed(3);
    if (scale === 1) return;
    var scrolls = container.scrollWidth > container.clientWidth;
    container.classList.add(scrolls ? "equation-scrolls" : "equation-scaled");
    if (scrolls) showWhereMoreIs(container);
  }

  function fit(display) {
    if (!display.clientWidth || display.dataset.fitting) return; // hidden, busy
    if (display.dataset.fitWidth === String(display.clientWidth)) return;
    display.dataset.fitWidth = display.clientWidth;
    if (display.dataset.tex === undefined) {
      var item = MathJax.startup.document.getMathItemsWithin(display)[0];
      if (!item) return;
      display.dataset.tex = item.math; // the display as written
    }
    if (display.dataset.broken)
      return typesetAs(display, display.dataset.tex, false).then(function () {
        delete display.dataset.fitWidth;
        return fit(display);
      });
    var fitted = layOut(display);
    var lines = fitted.fits ? null : breakTeX(display.dataset.tex);
    if (!lines) return finish(display, fitted);
    return typesetAs(display, lines, true).then(function () {
      finish(display, layOut(display));
    });
  }

  function showWhereMoreIs(container) {
    var left = container.scrollLeft > 0;
    var right =
      container.scrollLeft + container.clientWidth < container.scrollWidth - 1;
    container.dataset.more = left && right ? "both" : left ? "left" : "right";
  }

  document.addEventListener(
    "scroll",
    function (event) {
      var target = event.target;
      if (target.classList && target.classList.contains("equation-scrolls"))
        showWhereMoreIs(target);
    },
    true
  );

  function fitAll() {
    var displays = [].slice.call(document.querySelectorAll("div.math"));
    var watch = new ResizeObserver(function (entries) {
      entries.forEach(function (entry) {
        fit(entry.target);
      });
    });
    displays.forEach(function (display) {
      watch.observe(display); // which also fits it, at once
    });
  }

  // MathJax (deferred, after this script) has started by DOMContentLoaded
  var started = false;
  function whenTypeset() {
    var mathjax = window.MathJax;
    if (started || !(mathjax && mathjax.startup && mathjax.startup.promise))
      return;
    started = true;
    if (document.querySelector("div.math")) mathjax.startup.promise.then(fitAll);
  }
  whenTypeset();
  document.addEventListener("DOMContentLoaded", whenTypeset);
  window.addEventListener("load", whenTypeset);
})();
