"""Redis storage: one key builder, pydantic models, optimistic transactions."""
