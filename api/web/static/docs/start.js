// Starts Swagger UI on this server's own spec; a file rather than an inline script, so the
// page's Content-Security-Policy can forbid inline scripts.
window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({ url: "/openapi.yaml", dom_id: "#ui", deepLinking: true });
});
