"""From a model Result to what the templates read: frozen view-models, links, geometry.  No Jinja, no HTTP."""
