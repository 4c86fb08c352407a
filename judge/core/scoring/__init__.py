"""Pure scoring rules: values in, values out. No I/O, no model, no database."""
