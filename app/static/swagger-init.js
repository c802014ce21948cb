// Swagger UI for /docs, served from the vendored swagger-ui-dist (no CDN, no inline script).
window.addEventListener("DOMContentLoaded", () => {
  window.ui = window.SwaggerUIBundle({
    url: document.getElementById("swagger-ui").dataset.openapiUrl,
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
});
