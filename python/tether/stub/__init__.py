"""The stub generator: type stubs and bindings for registered globals and object types.

It fills marked blocks of source files from the runtime's reflection (the global function
registry and the registered object types):

- ``file_utils`` parses a file into plain lines and marked blocks, and writes it back;
- ``utils`` and ``lib_state`` hold the language-neutral metadata (functions, object types,
  their fields, init signatures and byte layout) read from the registry;
- ``layout`` decides whether an object's native layout is reproducible from that metadata;
- ``python_generator`` and ``rust_generator`` render the metadata as source text;
- ``cli`` drives a run (``python -m tether.stub``, the ``tvm-ffi-stubgen`` interface).
"""
