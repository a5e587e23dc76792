try:
    from .cli import run
except KeyboardInterrupt:  # Ctrl-C while the program itself is imported
    import os
    import sys

    sys.stderr.write("graphmine: interrupted\n")
    sys.stderr.flush()
    os._exit(130)

run()
