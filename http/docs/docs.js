// Renders /v1/openapi.json with Swagger UI (swagger-ui-dist, embedded in the
// binary). The server that serves this page is offered first, so "Try it out"
// calls the very service you are looking at.
window.addEventListener("load", async function () {
  const root = document.getElementById("swagger-ui");
  let spec;
  try {
    const res = await fetch("/v1/openapi.json", { headers: { Accept: "application/json" } });
    if (!res.ok) throw new Error("HTTP " + res.status);
    spec = await res.json();
  } catch (err) {
    root.textContent = "The API description could not be loaded: " + err.message;
    return;
  }
  const here = { url: window.location.origin, description: "This server" };
  spec.servers = [here].concat((spec.servers || []).filter((s) => s.url !== here.url));
  window.ui = SwaggerUIBundle({
    spec: spec,
    dom_id: "#swagger-ui",
    deepLinking: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    displayOperationId: false,
    displayRequestDuration: true,
    persistAuthorization: true,
    tryItOutEnabled: false,
    validatorUrl: null, // never send the document to a third party
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
});
