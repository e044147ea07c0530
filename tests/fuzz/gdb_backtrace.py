# Sourced by gdb (run_fuzzers.py) after a harness stopped on a signal while running one input
# alone: prints the stopped thread's stack in the sanitizers' format, so that run_fuzzers.py tells
# where it happened as it does from a sanitizer's report. A frame with a source line is named by
# it when it lies in the harness itself (Cineflow's code, built with -g); one in a shared object
# (a library's, the C library's) or without a line (libFuzzer's) by its module. Every frame ends
# with its module in braces, as run_fuzzers.STACK_FORMAT has the sanitizers print it. Prints
# nothing when the program did not stop (it exited).
import gdb  # noqa: provided by gdb

try:
    frame = gdb.newest_frame()
except gdb.error:  # "No stack": the input ran to its end
    frame = None
if frame is not None:
    print("==ERROR: gdb: the stack of the thread the signal stopped, the input run alone")
index = 0
while frame is not None and index < 64:
    pc = frame.pc()
    # A caller's pc is the return address, which may lie just past its function's end.
    lookup = pc - 1 if index > 0 else pc
    library = gdb.solib_name(lookup)
    module = library or gdb.current_progspace().filename
    line = frame.find_sal()
    name = frame.name()
    if name and line.symtab and library is None:
        print(f"    #{index} 0x{pc:x} in {name} {line.symtab.fullname()}:{line.line} {{{module}}}")
    elif name:
        print(f"    #{index} 0x{pc:x} in {name} ({module}+0x0) {{{module}}}")
    else:
        print(f"    #{index} 0x{pc:x} ({module}+0x0) {{{module}}}")
    try:
        frame = frame.older()
    except gdb.error:  # a smashed stack ends the walk
        break
    index += 1
