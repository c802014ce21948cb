// RLHF Pipeline Lab — what the page needs beyond htmx: ladder sliders, the answers of the next notches fetched
// ahead, the regions of a partial placed by id (the meters first) and the URL written a frame late (both cheaper
// here than htmx's own, docs/performance.md), keyboard shortcuts, guess mode, copy buttons.
// Everything is delegated on `document`, so it keeps working after htmx swaps the body (boosted links).
(() => {
  "use strict";
  const ladders = new WeakMap();
  const ladderOf = (range) => {
    let values = ladders.get(range);
    if (!values) {
      values = JSON.parse(range.dataset.ladder).map(Number);
      ladders.set(range, values);
    }
    return values;
  };
  const nearest = (values, x) => {
    let best = 0;
    let bestErr = Infinity;
    for (let k = 0; k < values.length; k++) {
      const err = Math.abs(values[k] - x) / Math.max(Math.abs(values[k]), 1e-9);
      if (err < bestErr) { best = k; bestErr = err; }
    }
    return best;
  };
  const unitOf = (input) => {
    const unit = input.parentElement && input.parentElement.querySelector(".unit");
    return unit ? " " + unit.textContent : "";
  };

  // --- The URL follows the state on screen, one frame late --------------------------------------------------
  // history.replaceState costs 3–8 ms on the project's machine (a round trip to the browser process), longer
  // than the swap itself, so it runs after the frame that paints the new state.  Until then `shown` holds the
  // state's URL: htmx's requests carry it as HX-Current-URL (the state the server diffs against), the copy
  // button copies it, and any other request (a boosted link) brings the address bar up to date first.
  let shown = null;
  let urlPending = false;
  const pageUrl = () => shown || location.href;
  const flushUrl = () => {
    urlPending = false;
    if (shown === null) return;
    const url = shown;
    shown = null;
    if (url !== location.href) history.replaceState(history.state, "", url);
  };
  const showUrl = (url) => {
    shown = url;
    if (urlPending) return;
    urlPending = true;
    if (document.hidden) setTimeout(flushUrl, 0);
    else requestAnimationFrame(() => setTimeout(flushUrl, 0));
  };
  document.addEventListener("visibilitychange", flushUrl);
  document.addEventListener("htmx:configRequest", (event) => {
    const from = event.detail.elt;
    if (from && from.id === "workload") {
      if (shown !== null) event.detail.headers["HX-Current-URL"] = shown;
    } else {
      flushUrl();
    }
  });
  document.addEventListener("htmx:beforeHistorySave", flushUrl);

  // --- The live regions of a partial, swapped in by id ----------------------------------------------------
  // What hx-swap-oob="true" means (replace the element with the same id), without htmx's per-element events,
  // settling and cleanup, which cost about ten times as much for a one-notch partial (docs/performance.md).
  // The server sends the regions a learner watches first (the stage, the diagram, the meters, the strip), then
  // <!--later--> and the rest (charts, estimates, decisions, links): the first part is parsed and placed at once,
  // the rest after the frame that paints it, so the meters never wait for the charts.  Open "show the math"
  // panels stay open; links that arrive are handed to htmx (boosting) with the second part.
  const LATER = "<!--later-->";
  const afterPaint = (fn) => {
    if (document.hidden) setTimeout(fn, 0);
    else requestAnimationFrame(() => setTimeout(fn, 0));
  };
  // The handout follows the state: a partial does not carry it (its QR code costs a move's whole server share to
  // draw, and its bytes a partial's budget), so once the moves have settled for a second the state's address and
  // code are fetched together from /{lang}/handout.  Meanwhile the block is marked stale, and a handout printed
  // then leaves the old code out and says so (app.css).
  let handoutTimer = 0;
  const handoutMoved = () => {
    const block = document.getElementById("handout");
    if (!block) return;
    block.querySelector(".handout-qr").classList.add("stale");
    clearTimeout(handoutTimer);
    handoutTimer = setTimeout(async () => {
      const want = new URL(pageUrl(), location.href).search.slice(1);  // the state on screen, as the address bar writes it
      if (block.dataset.for !== want) {
        const response = await fetch(new URL(`handout?${want}`, location.origin + location.pathname));
        if (!response.ok || new URL(pageUrl(), location.href).search.slice(1) !== want) return;  // a later move's turn
        block.innerHTML = await response.text();
        block.dataset.for = want;
      }
      block.querySelector(".handout-qr").classList.remove("stale");
    }, 1000);
  };
  const place = (html) => {  // the elements placed
    const tpl = document.createElement("template");
    tpl.innerHTML = html;
    const placed = [];
    for (const el of Array.from(tpl.content.children)) {
      if (el.getAttribute("hx-swap-oob") !== "true") continue;
      const old = document.getElementById(el.id);
      if (!old) continue;
      el.removeAttribute("hx-swap-oob");
      const open = old.querySelectorAll("details[open]");
      if (open.length) {
        const now = el.querySelectorAll("details");
        old.querySelectorAll("details").forEach((d, k) => { if (d.open && now[k]) now[k].open = true; });
      }
      old.replaceWith(el);
      placed.push(el);
    }
    if (placed.length) handoutMoved();
    return placed;
  };
  const boost = (placed) => {
    if (!window.htmx) return;
    for (const el of placed) if (el.matches("a[href]") || el.querySelector("a[href]")) htmx.process(el);
  };
  let later = null;  // the second part of the last partial and the elements of its first part, until placed
  const placeLater = () => {
    if (later === null) return;
    const {html, placed} = later;
    later = null;
    boost(placed.concat(place(html)));
  };
  const applyLive = (html) => {
    placeLater();  // an earlier answer's second part first: this partial is diffed against that state
    const cut = html.indexOf(LATER);
    if (cut < 0) { boost(place(html)); return; }
    later = {html: html.slice(cut), placed: place(html.slice(0, cut))};
    afterPaint(placeLater);
  };
  // A new page (a boosted link, a history restore): a second part still waiting belongs to the page that left.
  document.addEventListener("htmx:beforeSwap", (event) => { if (event.detail.boosted) later = null; });
  document.addEventListener("htmx:historyRestore", () => { later = null; });

  // The form's own answers go the same way (htmx still makes, queues and orders the requests).
  document.addEventListener("htmx:beforeSwap", (event) => {
    const d = event.detail;
    const from = d.requestConfig && d.requestConfig.elt;
    if (d.shouldSwap && from && from.id === "workload" && d.xhr && d.xhr.status === 200) {
      d.shouldSwap = false;
      applyLive(d.serverResponse);
    }
  });

  // --- Answers fetched ahead ------------------------------------------------------------------------------
  // A server round trip costs more than a frame on a slow machine, so while a slider (or a choice) is in
  // use, the partials for its neighbouring notches are fetched in the background, each against the page's
  // current URL (the state the server diffs against).  When the hand moves one notch, the answer is already
  // here: it is swapped in exactly as an htmx answer would be (applyLive above), and no
  // request is made.  An answer is used only while the page is still at the URL it was fetched against;
  // anything else — a number typed, a move while a request is in flight, a jump of several notches — takes
  // the ordinary htmx request.
  const ahead = new Map();  // request URL -> {base: page URL it was computed against, text: partial or null}
  const AHEAD_MAX = 8;

  const formOf = (el) => (el && el.form && el.form.id === "workload" ? el.form : null);
  const requestUrl = (form, name, value) => {
    const data = new FormData(form);
    if (name) data.set(name, value);
    if (name === "arch") archSize(data, form, value);
    return new URL(form.getAttribute("hx-get") + "?" + new URLSearchParams(data), location.origin).href;
  };
  // A named architecture sets the policy size itself: its policy_b control is disabled (not sent); choosing
  // custom again sends the size the chosen model had.  archSize applies that rule to a query about to be sent;
  // syncArch to the form when the choice changes (before htmx reads it).
  const archSize = (data, form, arch) => {
    if (arch !== "custom") { data.delete("policy_b"); return; }
    const size = form.querySelector("input[name=policy_b]");
    if (size) data.set("policy_b", size.value);
  };
  const syncArch = (radio) => {
    const form = formOf(radio);
    const size = form && form.querySelector("input[name=policy_b]");
    if (!size) return;
    const named = radio.value !== "custom";
    const range = size.closest(".ctl").querySelector(".ladder");
    if (named && radio.dataset.policyB) {
      size.value = radio.dataset.policyB;
      if (range) range.value = String(nearest(ladderOf(range), Number(size.value)));
    }
    size.disabled = named;
    if (range) range.disabled = named;
  };
  const fetchAhead = (form, name, value) => {
    const url = requestUrl(form, name, value);
    const base = pageUrl();
    if (url === base || (ahead.has(url) && ahead.get(url).base === base)) return;
    const entry = {base, text: null};
    ahead.set(url, entry);
    fetch(url, {headers: {"HX-Request": "true", "HX-Current-URL": base}, credentials: "same-origin"})
      .then((r) => (r.ok ? r.text() : null))
      .then((text) => { entry.text = text; }, () => { ahead.delete(url); });
  };
  const neighbours = (el) => {  // the notches (or choices) one move away from el's current value
    const form = formOf(el);
    if (!form || form.classList.contains("htmx-request")) return;
    const base = pageUrl();
    for (const [url, entry] of ahead) if (entry.base !== base) ahead.delete(url);
    if (el.classList.contains("ladder")) {
      const number = document.getElementById(el.dataset.for);
      const values = ladderOf(el);
      const k = Number(el.value);
      if (!number) return;
      for (const j of [k + 1, k - 1]) if (j >= 0 && j < values.length) fetchAhead(form, number.name, String(values[j]));
    } else if (el.type === "radio") {
      for (const other of form.elements[el.name]) if (!other.checked) fetchAhead(form, el.name, other.value);
    }
    while (ahead.size > AHEAD_MAX) ahead.delete(ahead.keys().next().value);
  };
  const aheadTarget = (el) => (el && el.closest && (el.closest("input.ladder")
    || (el.closest(".seg") && el.closest(".seg").querySelector("input[type=radio]:checked"))));
  let inUse = null;  // the slider or choice the hand is on
  const use = (event) => {
    const el = aheadTarget(event.target);
    if (el && formOf(el)) { inUse = el; neighbours(el); }
  };
  document.addEventListener("focusin", use);
  // The pointer only counts once it rests on a control (80 ms): sweeping across the form fetches nothing.
  let resting = 0;
  document.addEventListener("pointerover", (event) => {
    clearTimeout(resting);
    const ctl = event.target.closest && event.target.closest(".ctl");
    if (ctl) resting = setTimeout(() => { if (ctl.isConnected && ctl.matches(":hover")) use(event); }, 80);
  }, {passive: true});
  const afterUpdate = () => { if (inUse && inUse.isConnected) neighbours(inUse); };

  // Swaps a fetched-ahead answer in; false when there is none for this move (htmx then makes the request).
  const answerNow = (el) => {
    const form = formOf(el);
    if (!form || form.classList.contains("htmx-request")) return false;
    let ready = false;  // no answer has arrived yet: leave the move to htmx without serialising the form twice
    for (const entry of ahead.values()) if (entry.text !== null) { ready = true; break; }
    if (!ready) return false;
    const url = requestUrl(form);
    const entry = ahead.get(url);
    if (!entry || entry.text === null || entry.base !== pageUrl()) return false;
    ahead.clear();
    applyLive(entry.text);
    showUrl(url);
    inUse = el;
    setTimeout(afterUpdate, 0);
    return true;
  };

  // Capture phase: runs before htmx's listener on the form reads the values.
  document.addEventListener("input", (event) => {
    const el = event.target;
    if (el.classList && el.classList.contains("ladder")) {
      const number = document.getElementById(el.dataset.for);
      if (!number) return;
      number.value = ladderOf(el)[Number(el.value)];
      el.setAttribute("aria-valuetext", number.value + unitOf(number));
      if (answerNow(el)) event.stopPropagation();  // answered: htmx's trigger on the form never sees it
    } else if (el.type === "radio") {
      if (el.name === "arch") syncArch(el);
      if (answerNow(el)) event.stopPropagation();
    } else if (el.type === "number" && el.form && el.form.id === "workload") {
      const range = el.closest(".ctl") && el.closest(".ctl").querySelector(".ladder");
      const x = Number(el.value);
      if (range && el.value !== "" && Number.isFinite(x)) {
        range.value = String(nearest(ladderOf(range), x));
        range.setAttribute("aria-valuetext", el.value + unitOf(el));
      }
    }
  }, true);

  // The URL follows the workload form (shareable; htmx sends it back as HX-Current-URL, the state the next
  // partial is diffed against).  Done here rather than with hx-replace-url, which makes htmx snapshot the whole
  // page into sessionStorage before every swap (a replaced entry never needs that snapshot).
  document.addEventListener("htmx:afterRequest", (event) => {
    const d = event.detail;
    if (d.successful && d.elt && d.elt.id === "workload" && d.xhr && d.xhr.responseURL) {
      showUrl(d.xhr.responseURL);
      setTimeout(afterUpdate, 0);  // the next notches' fetches start once the meters are in the DOM
    }
  });

  const click = (selector) => {
    const target = document.querySelector(selector);
    if (target) target.click();
    return Boolean(target);
  };
  const typing = (el) => el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));

  // A choice clicked with the pointer gives the keys back at once: the arrow keys then step the walkthrough
  // instead of silently moving the radio (a keyboard user who tabbed in keeps the radio's own arrow keys).
  document.addEventListener("change", (event) => {
    const el = event.target;
    const ours = (el.form && el.form.id === "workload") || (el.closest && el.closest("[data-guess]"));  // a guess's chips too
    if (el.type === "radio" && ours && el.matches(":focus") && !el.matches(":focus-visible")) el.blur();
  });

  // Guess mode: the figures and decisions stay hidden until the reveal (app.css); kept for the tab's session.
  const GUESS = "rlhf-lab-guess";
  const setGuess = (on) => {
    document.documentElement.classList.toggle("guess", on);
    try { if (guessing() !== on) sessionStorage.setItem(GUESS, on ? "1" : ""); } catch (e) { /* storage off: this page only */ }
    const btn = document.getElementById("guess-toggle");
    if (btn) btn.setAttribute("aria-pressed", String(on));  // app.css shows the label that goes with it
  };
  const guessing = () => { try { return sessionStorage.getItem(GUESS) === "1"; } catch (e) { return false; } };
  const syncGuess = () => setGuess(guessing());
  document.addEventListener("DOMContentLoaded", syncGuess);
  document.addEventListener("htmx:afterSettle", syncGuess);

  // The diagram's phone form (issue 33): on a narrow screen it takes its two-column viewBox (the server's
  // data-phone-viewbox) and app.css's generated phone block places the nodes, edges and the GPU key on it; wider, its own.
  const narrow = window.matchMedia("(max-width: 640px)");
  const layoutDiagrams = () => {
    for (const svg of document.querySelectorAll("svg.diagram[data-phone-viewbox]")) {
      const layout = narrow.matches ? "phone" : "wide";
      if (svg.dataset.layout === layout) continue;
      svg.dataset.layout = layout;
      svg.setAttribute("viewBox", narrow.matches ? svg.dataset.phoneViewbox : svg.dataset.viewbox);
    }
  };
  layoutDiagrams();
  document.addEventListener("DOMContentLoaded", layoutDiagrams);
  document.addEventListener("htmx:afterSettle", layoutDiagrams);
  narrow.addEventListener("change", layoutDiagrams);

  // Predict, then see: a step card's [data-guess] takes a choice or a notch, "Lock in" keeps it for the tab, and
  // the answer shows the verdict the server wrote for that option ([data-guess-verdict]); nothing is computed here.
  const GUESSED = "rlhf-lab-guessed-";
  const guessValue = (box) => {
    const picked = box.querySelector("input[type=radio]:checked, input[type=range]");
    return picked ? picked.value : null;
  };
  const showNotch = (range) => {
    const out = range.parentElement.querySelector("output");
    if (!out) return;
    for (const span of out.querySelectorAll("[data-notch]")) span.hidden = span.dataset.notch !== range.value;
    const shown = out.querySelector(`[data-notch="${range.value}"]`);
    if (shown) range.setAttribute("aria-valuetext", shown.textContent);
  };
  const showGuess = (box, value) => {
    box.dataset.guessed = value;
    for (const input of box.querySelectorAll("input")) {
      if (input.type === "radio") input.checked = input.value === value;
      else { input.value = value; showNotch(input); }
      input.disabled = true;
    }
    const commit = box.querySelector("[data-guess-commit]");
    if (commit) commit.disabled = true;
    const locked = box.querySelector("[data-guess-locked]");
    if (locked) locked.hidden = false;
    const card = box.closest("[data-walk-step]");
    const result = card && card.querySelector("[data-guess-result]");
    if (!result) return;
    for (const p of result.querySelectorAll("[data-guess-verdict]")) p.hidden = p.dataset.guessVerdict !== value;
    result.hidden = false;
  };
  const syncGuesses = () => {
    for (const box of document.querySelectorAll("[data-guess]")) {
      let value = null;
      try { value = sessionStorage.getItem(GUESSED + box.dataset.guessStep); } catch (e) { /* storage off */ }
      if (value !== null && value !== "") showGuess(box, value);
      else for (const range of box.querySelectorAll("input[type=range]")) showNotch(range);
    }
  };
  document.addEventListener("DOMContentLoaded", syncGuesses);
  document.addEventListener("htmx:afterSettle", syncGuesses);
  document.addEventListener("input", (event) => {
    const el = event.target;
    if (el.type === "range" && el.closest("[data-guess]")) showNotch(el);
  });
  document.addEventListener("click", (event) => {
    const btn = event.target.closest && event.target.closest("[data-guess-commit]");
    const box = btn && btn.closest("[data-guess]");
    if (!box) return;
    const value = guessValue(box);
    if (value === null) return;  // no choice picked yet
    try { sessionStorage.setItem(GUESSED + box.dataset.guessStep, value); } catch (e) { /* this page only */ }
    showGuess(box, value);
  });

  // A walkthrough move (Next, Previous, a step's dot, ← →) lands on the new step's question.  A boosted page keeps
  // the scroll position (scrollIntoViewOnBoost is off so that a preset or a control keeps the learner where the
  // change happens); after a long open answer on a phone that position is below the new question, so the card
  // comes to the top of the screen, and only when its question is not already in view.
  let walked = false;
  document.addEventListener("htmx:beforeRequest", (event) => {
    const el = event.detail.elt;
    walked = Boolean(el && el.closest && el.closest("[data-walk], .walk-dots"));
  });
  document.addEventListener("htmx:afterSettle", () => {
    if (!walked) return;
    walked = false;
    const question = document.querySelector(".walk-card .walk-q");
    if (!question) return;
    const box = question.getBoundingClientRect();
    if (box.top < 0 || box.bottom > innerHeight) question.closest(".walk-card").scrollIntoView({block: "start"});
  });

  // A handout: the step's answer and takeaway print even when the answer is shut (shut again afterwards).  The
  // state's whole address is the server's (from the request's base URL: /{lang}/handout after a move).
  let shutForPrint = [];
  window.addEventListener("beforeprint", () => {
    shutForPrint = [...document.querySelectorAll("details.walk-reveal:not([open])")];
    for (const d of shutForPrint) d.open = true;
  });
  window.addEventListener("afterprint", () => {
    for (const d of shutForPrint) d.open = false;
    shutForPrint = [];
  });

  // Presenter view: the step chart and the timeline take turns in one wide cell (app.css); this shows the other one.
  // The choice lives on the stage column, so the next walkthrough step (a new page) opens on its own chart.
  const swapCharts = () => {
    const col = document.querySelector(".lab.present #stage-col");
    if (!col) return;
    const on = col.classList.toggle("swap");
    const button = document.getElementById("chart-swap");
    if (button) button.setAttribute("aria-pressed", String(on));
  };

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    if (event.key === "Escape" && typing(event.target) && event.target.form && event.target.form.id === "workload") {
      event.target.blur();  // Esc gives the shortcuts back from a slider, a number or a choice
      return;
    }
    if (typing(event.target)) return;
    const help = document.getElementById("help");
    if (event.key === "ArrowRight") {
      if (click("[data-walk=next]")) event.preventDefault();
    } else if (event.key === "ArrowLeft") {
      if (click("[data-walk=prev]")) event.preventDefault();
    } else if (/^[1-9]$/.test(event.key) && document.querySelector(`.preset[data-key="${event.key}"]`)) {
      click(`.preset[data-key="${event.key}"]`);
    } else if (event.key === "?" && help && !help.open) {
      help.showModal();
    } else if (event.key === "g") {
      setGuess(!guessing());
    } else if (event.key === "c") {
      swapCharts();
    } else if (event.key === "r") {
      const reveal = document.querySelector(".walk-reveal > summary, details:has(> [data-reveal]) > summary");
      if (reveal) reveal.click();
    }
  });

  document.addEventListener("click", (event) => {
    const el = event.target.closest && event.target.closest("button");
    if (!el) return;
    if (el.id === "guess-toggle") {
      setGuess(!guessing());
    } else if (el.id === "chart-swap") {
      swapCharts();
    } else if (el.id === "help-button") {
      const help = document.getElementById("help");
      if (help) help.showModal();
    } else if (el.id === "copy-link") {
      const done = () => {
        const label = el.textContent;
        el.textContent = el.dataset.copied;
        setTimeout(() => { el.textContent = label; }, 1600);
      };
      // the students' link: the state without present=1 (a presenter layout hides the form a student works in;
      // the printed handout's address drops it too, app/view/handout.py), the instructor keeps the address bar's
      const link = new URL(pageUrl(), location.href);
      link.searchParams.delete("present");
      const url = link.href;
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(url).then(done, () => window.prompt("", url));
      } else {
        window.prompt("", url);
      }
    }
  });

  // --- Launch page: the Copy button of each command ----------------------------------------------------------
  // Copies the text of the <code> its data-copy names (the command exactly as shown), like the copy-link button;
  // without the clipboard API it selects the text, so Ctrl+C / long-press copies it.  Without JavaScript the
  // button is hidden (nojs.css) and the command stays selectable.
  const selectText = (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  };
  document.addEventListener("click", (event) => {
    const btn = event.target.closest && event.target.closest("button.copy-cmd");
    if (!btn) return;
    const code = document.getElementById(btn.dataset.copy);
    if (!code) return;
    const text = code.textContent;
    const done = () => {
      if (!btn.dataset.label) btn.dataset.label = btn.textContent;
      btn.textContent = btn.dataset.copied;
      btn.classList.add("done");
      const status = btn.parentElement && btn.parentElement.querySelector(".copy-status");
      if (status) status.textContent = btn.dataset.copied;
      clearTimeout(Number(btn.dataset.timer));
      btn.dataset.timer = String(setTimeout(() => {
        btn.textContent = btn.dataset.label;
        btn.classList.remove("done");
        if (status) status.textContent = "";
      }, 1600));
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, () => selectText(code));
    } else {
      selectText(code);
    }
  });
})();
