"""graphmine's private runtime: threads, interrupts, output files, memory limits, progress bars,
lazy loading, optional dependencies, start-up and docstring templates. Nothing here is public."""
