// "Paste config.json" (app/templates/_config_paste.html).  With JavaScript the paste is read here and fills the
// custom shape's fields; a paste this script cannot read goes to the server (POST /{lang}/config), which says why.
// The mapping is app/model/architectures.py CONFIG_KEYS: tests/model/test_custom_shape.py checks they agree.
(() => {
  "use strict";
  const KEYS = /* CONFIG_KEYS */{"layers": ["num_hidden_layers"], "hidden": ["hidden_size"], "heads": ["num_attention_heads"], "kv_heads": ["num_key_value_heads"], "head_dim": ["head_dim"], "vocab": ["vocab_size"], "tied": ["tie_word_embeddings"], "intermediate": ["intermediate_size"], "experts": ["n_routed_experts", "num_experts", "num_local_experts"], "experts_active": ["num_experts_per_tok", "experts_per_token"], "expert_hidden": ["moe_intermediate_size"], "kv_lora_rank": ["kv_lora_rank"]}/* end */;
  const HEAD_DIM_PARTS = ["qk_nope_head_dim", "qk_rope_head_dim"];
  const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
  const whole = (v) => (typeof v === "number" && Number.isInteger(v) ? v : null);

  const ATTENTION = ["window_layers", "window", "linear_layers", "linear_state_values"];  // the shape's other fields
  const attentionOf = (config) => {  // as architectures.attention_layers_from_config
    const layers = whole(config.num_hidden_layers) || 0;
    let types = config.layer_types;
    if (!Array.isArray(types)) {
      const interval = whole(config.full_attention_interval);
      const linear = config.linear_num_value_heads;
      types = interval && linear && !(Array.isArray(linear) && !linear.length)
        ? Array.from({length: layers}, (_, k) => ((k + 1) % interval ? "linear_attention" : "full_attention")) : [];
    }
    const window = whole(config.sliding_window) || 0;
    const windowLayers = window ? types.filter((t) => t === "sliding_attention").length : 0;
    const linearLayers = types.filter((t) => t === "linear_attention").length;
    let state = 0;
    if (linearLayers) {
      const [kh, vh, kd, vd] = ["linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim",
                                "linear_value_head_dim"].map((k) => whole(config[k]) || 0);
      const conv = Math.max((whole(config.linear_conv_kernel_dim) || 1) - 1, 0);
      state = vh * kd * vd + conv * (2 * kh * kd + vh * vd);
    }
    return {window_layers: windowLayers, window: windowLayers ? window : 0, linear_layers: linearLayers,
            linear_state_values: state};
  };

  const shapeOf = (config) => {  // as architectures.params_from_config
    if (isObject(config.text_config)) config = config.text_config;
    const out = {};
    for (const [name, keys] of Object.entries(KEYS)) {
      for (const key of keys) {
        const raw = config[key];
        const value = name === "tied" && typeof raw === "boolean" ? Number(raw) : whole(raw);
        if (value !== null) { out[name] = value; break; }
      }
      if (name === "head_dim" && !(name in out)) {
        const [nope, rope] = HEAD_DIM_PARTS.map((k) => whole(config[k]));
        if (nope !== null && rope !== null) out[name] = nope + rope;
      }
    }
    for (const [name, value] of Object.entries(attentionOf(config))) if (value) out[name] = value;  // what it has
    return out;
  };

  if (typeof module === "object" && module.exports) module.exports = shapeOf;  // for the test under node only

  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-config-paste]");
    if (!button) return;
    const box = button.closest(".config-paste");
    const post = document.getElementById("config-paste");
    if (post) post.action = location.pathname + "config" + location.search;  // the state on screen
    let config = null;
    try { config = JSON.parse(box.querySelector("textarea").value); } catch (e) { return; }
    if (!isObject(config)) return;
    const shape = shapeOf(config);
    if (!("layers" in shape)) return;
    event.preventDefault();
    for (const input of box.querySelectorAll("input[data-shape]")) {
      input.disabled = false;
      input.value = input.name in shape ? String(shape[input.name]) : "";
    }
    box.querySelector("textarea").value = "";
    const custom = document.querySelector('#workload input[name="arch"][value="custom"]');
    custom.checked = true;
    custom.dispatchEvent(new Event("input", {bubbles: true}));  // as if chosen: app.js and htmx answer the form
  });

  document.addEventListener("input", (event) => {
    const el = event.target;
    if (el.id === "config-paste-text") event.stopPropagation();  // typing a paste is not a move
    if (el.name === "arch" && el.form && el.form.id === "workload") {
      for (const input of document.querySelectorAll("input[data-shape]")) input.disabled = el.value !== "custom";
    }
  }, true);

  // The shape's empty fields stay out of the lab's URL.
  document.addEventListener("htmx:configRequest", (event) => {
    const params = event.detail.parameters;
    for (const name of [...Object.keys(KEYS), ...ATTENTION]) {
      if (params[name] === "") delete params[name];
    }
  });
})();
