// Lease Playground in a docs page with one line (docs/embedding.md):
//   <script src="https://your.site/lease/embed.js" defer></script>
//   <lease-playground scenario="clip-surge" style="display:block;height:576px"></lease-playground>
// (the style, which the Embed panel writes, is the figure's box until this
// script has run: a deferred script runs after the first paint).
// Until the reader scrolls a figure into view (or clicks it, with
// load="click"), it shows a still picture of the scenario's timeline, drawn
// at build time (previews/), and fetches none of the playground's wasm.
// Then the playground's page replaces the picture in an iframe, sized from
// the height the page reports. No framework: this file is all a docs page
// pays before its reader asks for a figure.
(function () {
  'use strict';
  var NAME = 'lease-playground';
  if (!window.customElements || customElements.get(NAME)) return;

  // Filled in by the build (scripts/previews.sh) from the shipped scenarios:
  // the picture's files hold the titles too, but a host on another origin
  // cannot read them.
  var TITLES = /*titles*/ {} /*titles*/;

  // The playground's folder: where this script was loaded from. A script a
  // framework adds after the page has loaded still has its own src.
  var me = document.currentScript || document.querySelector('script[src*="embed.js"]');
  var FOLDER = me && me.src ? new URL('.', me.src).href : new URL('.', location.href).href;

  // The element's own attributes; every other one (but HTML's global ones)
  // is passed to the playground as a share-link field, such as timeout="45s".
  var OWN = /^(src|scenario|parts|theme|height|load|id|class|style|title|hidden|lang|dir|slot|tabindex|data-.*|aria-.*|on.*)$/;
  var HEIGHT = 'lease-playground:height';
  var LEAVE = 'lease-playground:leave';

  var CSS =
    // A block, as the snippet's own style writes it before this script
    // runs (the host's style wins over :host): the picture and its bar are
    // laid out inside, in a column as tall as the box.
    ':host{display:block;box-sizing:border-box;border:1px solid #8884;max-width:100%;overflow:hidden;' +
    'border-radius:6px;background:#f6f7f9;color:#1d2330;' +
    'font:14px/1.4 system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif}' +
    ':host([data-dark]){background:#16181d;color:#e4e7ee}' +
    '.col{display:flex;flex-direction:column;height:100%}' +
    '.pic{flex:1;min-height:0;overflow:hidden}img{display:block;width:100%;height:auto}' +
    '.bar{display:flex;gap:.75em;align-items:center;' +
    'padding:.6em .8em;background:#f6f7f9;border-top:1px solid #8884}' +
    ':host([data-dark]) .bar{background:#16181d}' +
    '.t{flex:1;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-weight:600}' +
    'button{font:inherit;font-weight:600;padding:.45em 1em;border-radius:999px;border:0;' +
    'background:#2563eb;color:#fff;cursor:pointer;white-space:nowrap}' +
    'button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}' +
    'iframe{display:block;width:100%;height:100%;border:0}' +
    // The figure's one tab stop once loaded: shown while it has the focus.
    ':host{position:relative}' +
    '.enter{position:absolute;top:.5em;left:.5em;z-index:1;opacity:0;pointer-events:none}' +
    '.enter:focus{opacity:1;pointer-events:auto}';

  var dark = window.matchMedia ? matchMedia('(prefers-color-scheme: dark)') : { matches: false };

  // The host page's own scheme, where its theme switch writes it on <html>:
  // `data-theme="dark"` (Docusaurus and many others), a `dark` or `light`
  // class (Tailwind-style toggles), or mdBook's theme classes. Null when
  // the page says nothing: then the reader's operating system decides.
  var MDBOOK_DARK = ['coal', 'navy', 'ayu'];
  var MDBOOK_LIGHT = ['rust'];
  function hostScheme() {
    var html = document.documentElement;
    var t = html.getAttribute('data-theme');
    if (t === 'dark' || t === 'light') return t;
    var c = html.classList;
    if (c.contains('dark')) return 'dark';
    if (c.contains('light')) return 'light';
    for (var i = 0; i < MDBOOK_DARK.length; i++) if (c.contains(MDBOOK_DARK[i])) return 'dark';
    for (var j = 0; j < MDBOOK_LIGHT.length; j++) if (c.contains(MDBOOK_LIGHT[j])) return 'light';
    return null;
  }

  // The figure's height from the parts it shows, the rule its page lays
  // them out by (static/style.css, "Embed mode"): each part has a fixed
  // height whatever the run and the width, the controls, the charts and the
  // scenario's notes behind a disclosure the reader opens. The figure takes
  // it before it loads, so the text below it does not move when the
  // playground arrives, and keeps at least it while the playground starts.
  // A comparison (`compare="1"`, side B in `b.` attributes) adds side B's
  // part under the timeline: a disclosure of A and B's totals and charts,
  // and B's timeline, as tall as A's.
  var PART_PX = { scenario: 44, controls: 44, totals: 76, playback: 60, timeline: 400, charts: 44 };
  var DEFAULT_PARTS = ['controls', 'totals', 'timeline'];
  var PAD_PX = 6, HEAD_PX = 26, GAP_PX = 8;
  var COMPARE_PX = 452;
  // The link's `compare` as the page reads it (lease_format's parse_bool).
  var YES = ['', '1', 'true', 'yes', 'on'];
  function partsOf(text) {
    var named = String(text || '').split(',').map(function (p) { return p.trim(); });
    var known = Object.keys(PART_PX).filter(function (p) { return named.indexOf(p) >= 0; });
    return known.length ? known : DEFAULT_PARTS;
  }
  function ruleHeight(parts, compares) {
    var sum = 0;
    for (var i = 0; i < parts.length; i++) sum += PART_PX[parts[i]];
    var b = compares && parts.indexOf('timeline') >= 0 ? GAP_PX + COMPARE_PX : 0;
    return PAD_PX + HEAD_PX + sum + GAP_PX * (parts.length - 1) + b + PAD_PX;
  }

  function positive(text, fallback) {
    var n = parseInt(text, 10);
    return n > 0 && n < 10000 ? n : fallback;
  }

  class Figure extends HTMLElement {}
  Figure.observedAttributes = ['theme', 'height'];
  var proto = Figure.prototype;

  // The playground's folder: `src` may name the folder or its index.html.
  proto.folder = function () {
    var src = this.getAttribute('src');
    return src ? new URL('.', new URL(src, location.href)).href : FOLDER;
  };
  proto.scenario = function () {
    return this.getAttribute('scenario') || 'clip-surge';
  };
  // The settings the figure passes to the playground: `timeout="45s"` is
  // `timeout 45s`.
  proto.changes = function () {
    var out = [];
    for (var i = 0; i < this.attributes.length; i++) {
      var a = this.attributes[i];
      if (!OWN.test(a.name)) out.push(a.name + ' ' + a.value);
    }
    return out;
  };
  // A shipped title quotes the scenario's settings ("against a 60-second
  // timeout"): a figure that changes them says so after it.
  proto.shipped = function () {
    return TITLES[this.scenario()] || this.scenario();
  };
  proto.title_ = function () {
    var changed = this.changes();
    return this.shipped() + (changed.length ? ', changed: ' + changed.join(', ') : '');
  };
  // The scheme the figure shows: its own `theme` when it names one, else
  // the host page's, else `auto` (the reader's operating system).
  proto.theme_ = function () {
    var t = this.getAttribute('theme');
    if (t === 'dark' || t === 'light') return t;
    return hostScheme() || 'auto';
  };
  proto.isDark = function () {
    var t = this.theme_();
    return t === 'dark' || (t === 'auto' && dark.matches);
  };
  // The scheme changed (the attribute, the host's switch or the OS): the
  // picture, the box and the playground inside follow.
  proto.restyle = function () {
    if (!this.shadowRoot) return;
    this.paint();
    if (this.frame && this.frame.contentWindow) {
      this.frame.contentWindow.postMessage(
        { type: 'lease-playground:set-theme', theme: this.theme_() },
        new URL(this.folder()).origin
      );
    }
  };

  proto.connectedCallback = function () {
    // Moved within the page: watch for it again if it has not loaded yet.
    if (this.shadowRoot) {
      if (this.observer && !this.frame) this.observer.observe(this);
      return;
    }
    var self = this;
    var root = this.attachShadow({ mode: 'open' });
    var title = this.title_();
    root.innerHTML =
      '<style>' + CSS + '</style><div class="col"><div class="pic"><img alt=""></div><div class="bar"><span class="t"></span>' +
      '<button type="button">\u25B6 Play</button></div></div>';
    // The figure's box before anything is in it (its border from the style
    // just set), so that the text around it does not move when the picture
    // or the playground arrives.
    this.style.height = this.reserved() + 'px';
    root.querySelector('.t').textContent = title;
    var img = root.querySelector('img');
    img.alt = 'Timeline of ' + this.shipped() +
      (this.changes().length ? ' as shipped, before the changes' : '') +
      ' (a still picture until the playground loads)';
    var button = root.querySelector('button');
    button.setAttribute('aria-label', 'Load the playground: ' + title);
    button.addEventListener('click', function () {
      self.load(true);
    });
    this.paint();
    this.themeListener = function () {
      self.restyle();
    };
    if (dark.addEventListener) dark.addEventListener('change', this.themeListener);

    if (this.getAttribute('load') !== 'click' && window.IntersectionObserver) {
      this.observer = new IntersectionObserver(function (entries) {
        if (entries.some(function (e) { return e.isIntersecting; })) self.load(false);
      });
      this.observer.observe(this);
    } else if (this.getAttribute('load') !== 'click') {
      this.load(false);
    }
  };

  proto.disconnectedCallback = function () {
    if (this.observer) this.observer.disconnect();
    if (dark.removeEventListener) dark.removeEventListener('change', this.themeListener);
  };

  proto.attributeChangedCallback = function (name) {
    if (!this.shadowRoot) return;
    if (name === 'height' && !this.frame) this.style.height = this.reserved() + 'px';
    if (name === 'theme') this.restyle();
  };

  // The height the figure keeps from the start: its parts' (above), or the
  // page's own `height` where that is more.
  proto.reserved = function () {
    var rule = ruleHeight(partsOf(this.getAttribute('parts')), this.compares());
    return Math.max(rule + this.borders(), positive(this.getAttribute('height'), 0));
  };
  proto.compares = function () {
    var c = this.getAttribute('compare');
    return c !== null && YES.indexOf(c.trim().toLowerCase()) >= 0;
  };

  // The still picture in the figure's theme, and the box's colours with it.
  proto.paint = function () {
    var d = this.isDark();
    this.toggleAttribute('data-dark', d);
    var img = this.shadowRoot.querySelector('img');
    if (img) img.src = this.folder() + 'previews/' + encodeURIComponent(this.scenario()) + (d ? '.dark' : '') + '.svg';
  };

  // The playground's address: the figure's attributes as a share link.
  proto.link = function () {
    var q = new URLSearchParams();
    q.set('scenario', this.scenario());
    for (var i = 0; i < this.attributes.length; i++) {
      var a = this.attributes[i];
      if (!OWN.test(a.name)) q.set(a.name, a.value);
    }
    q.set('embed', '1');
    q.set('panels', this.getAttribute('parts') || 'controls,totals,timeline');
    var theme = this.theme_();
    if (theme !== 'auto') q.set('theme', theme);
    return this.folder() + '?' + q.toString().replace(/%2C/g, ',');
  };

  proto.load = function (focus) {
    if (this.frame) return;
    if (this.observer) this.observer.disconnect();
    var self = this;
    var frame = document.createElement('iframe');
    frame.title = 'Lease Playground: ' + this.title_();
    frame.src = this.link();
    this.frame = frame;
    var root = this.shadowRoot;
    root.innerHTML = '<style>' + CSS + '</style><button type="button" class="enter"></button>';
    // A playground has some forty controls: a reader tabbing through the
    // docs page meets the figure as one stop, goes in with Enter, or goes
    // past it with the next Tab. A pointer goes in as it always does.
    var enter = root.querySelector('.enter');
    enter.textContent = '\u23CE Enter the playground \u00B7 Tab skips past it';
    enter.setAttribute('aria-label', 'Lease Playground: ' + this.title_() + '. Enter goes into it; Tab skips past it.');
    enter.addEventListener('click', function () {
      self.enter_();
      frame.focus();
    });
    frame.addEventListener('focus', function () {
      self.enter_();
    });
    this.gate_();
    root.appendChild(frame);
    // The reader who pressed Play goes on inside the figure, not at the top
    // of the page where a removed button leaves the focus.
    if (focus) {
      this.enter_();
      frame.focus();
    }
    this.dispatchEvent(new CustomEvent('lease-playground:load', { bubbles: true }));
  };

  // Out of the page's tab order (one stop, the Enter button), or in it.
  proto.gate_ = function () {
    this.frame.setAttribute('tabindex', '-1');
    this.removeAttribute('data-entered');
  };
  // Out of the playground, onto the figure's stop (only while the focus is
  // still in it: a late message does not take the focus from elsewhere).
  proto.leave_ = function () {
    if (!this.hasAttribute('data-entered') || document.activeElement !== this) return;
    this.gate_();
    var enter = this.shadowRoot.querySelector('.enter');
    if (enter) enter.focus();
  };
  proto.enter_ = function () {
    this.frame.removeAttribute('tabindex');
    this.setAttribute('data-entered', '');
  };

  // The figure's box is `border-box` with a border (ours, or the host's own
  // style): the frame gets the reported height when the box is that much
  // taller, or the frame scrolls inside by the border's width.
  proto.borders = function () {
    var cs = getComputedStyle(this);
    if (cs.boxSizing !== 'border-box') return 0;
    return (parseFloat(cs.borderTopWidth) || 0) + (parseFloat(cs.borderBottomWidth) || 0) +
      (parseFloat(cs.paddingTop) || 0) + (parseFloat(cs.paddingBottom) || 0);
  };

  // The host's theme switch: one watch of <html> for every figure.
  if (window.MutationObserver) {
    new MutationObserver(function () {
      var all = document.querySelectorAll(NAME);
      for (var i = 0; i < all.length; i++) if (all[i].restyle) all[i].restyle();
    }).observe(document.documentElement, { attributes: true, attributeFilter: ['class', 'data-theme'] });
  }

  // A click or a touch into a figure's playground moves the focus into its
  // frame without a focus event on the frame: this page's window loses the
  // focus, and the figure is then the page's active element.
  addEventListener('blur', function () {
    setTimeout(function () {
      var a = document.activeElement;
      if (a && a.localName === NAME && a.frame && a.shadowRoot.activeElement === a.frame) a.enter_();
    });
  });

  // The focus went elsewhere in the page: every figure it left is one tab
  // stop again.
  addEventListener('focusin', function (e) {
    var all = document.querySelectorAll(NAME);
    for (var i = 0; i < all.length; i++) {
      var f = all[i];
      if (f !== e.target && f.frame && f.hasAttribute('data-entered')) f.gate_();
    }
  });

  // One listener for every figure: the playground reports its height, and
  // the figure whose frame sent it takes that height; or an Escape the
  // playground had no use for, and the reader leaves the figure for its
  // stop in this page, where the page's own Escape handlers hear the next.
  addEventListener('message', function (e) {
    var d = e.data;
    if (!d) return;
    var all = document.querySelectorAll(NAME);
    if (d.type === LEAVE) {
      for (var j = 0; j < all.length; j++) {
        var g = all[j];
        if (g.frame && g.frame.contentWindow === e.source && e.origin === new URL(g.folder()).origin) g.leave_();
      }
      return;
    }
    if (d.type !== HEIGHT || !(d.height > 0)) return;
    for (var i = 0; i < all.length; i++) {
      var f = all[i];
      if (f.frame && f.frame.contentWindow === e.source && e.origin === new URL(f.folder()).origin) {
        // Never below the reserved height: a playground still starting
        // reports less (its header alone) for a moment.
        f.style.height = Math.max(f.reserved(), Math.min(Math.ceil(d.height) + f.borders(), 20000)) + 'px';
        f.setAttribute('data-reported-height', String(Math.ceil(d.height)));
      }
    }
  });

  customElements.define(NAME, Figure);
})();
