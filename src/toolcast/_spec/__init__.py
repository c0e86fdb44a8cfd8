"""The rule spec (spec/<provider>/<version>.yaml) as the generator and the run time read it: load
and check the YAML (yamldoc, resolve, checks, honoured), expand the catalogue and the `extends`
chain, and render the rule tables (render). tools/gen_tables.py writes the built-in tables with it;
toolcast.rules.load_spec_dir expands a spec folder outside the package with the same code.
Nothing here is imported on the compile path: pyyaml and the meta-schema validator load only when
a spec is read."""
