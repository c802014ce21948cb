// RLHF Pipeline Lab — the little the page needs beyond htmx: ladder sliders, keyboard shortcuts, copy link.
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

  // Capture phase: runs before htmx's listener on the form reads the values.
  document.addEventListener("input", (event) => {
    const el = event.target;
    if (el.classList && el.classList.contains("ladder")) {
      const number = document.getElementById(el.dataset.for);
      if (!number) return;
      number.value = ladderOf(el)[Number(el.value)];
      el.setAttribute("aria-valuetext", number.value + unitOf(number));
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
      history.replaceState(history.state, "", d.xhr.responseURL);
    }
  });

  const click = (selector) => {
    const target = document.querySelector(selector);
    if (target) target.click();
    return Boolean(target);
  };
  const typing = (el) => el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    if (typing(event.target)) return;
    const help = document.getElementById("help");
    if (event.key === "ArrowRight") {
      if (click("[data-walk=next]")) event.preventDefault();
    } else if (event.key === "ArrowLeft") {
      if (click("[data-walk=prev]")) event.preventDefault();
    } else if (/^[1-6]$/.test(event.key)) {
      click(`.preset[data-key="${event.key}"]`);
    } else if (event.key === "?" && help && !help.open) {
      help.showModal();
    }
  });

  document.addEventListener("click", (event) => {
    const el = event.target.closest && event.target.closest("button");
    if (!el) return;
    if (el.id === "help-button") {
      const help = document.getElementById("help");
      if (help) help.showModal();
    } else if (el.id === "copy-link") {
      const done = () => {
        const label = el.textContent;
        el.textContent = el.dataset.copied;
        setTimeout(() => { el.textContent = label; }, 1600);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(location.href).then(done, () => window.prompt("", location.href));
      } else {
        window.prompt("", location.href);
      }
    }
  });
})();
