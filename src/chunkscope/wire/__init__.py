"""What crosses from the kernel to the page: the schema, batching, held values, saved snapshots."""
