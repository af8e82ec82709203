build-x/obj/src/format/trace_path.o: src/format/trace_path.c \
 src/format/trace_path.h src/fileio/safe_file.h
src/format/trace_path.h:
src/fileio/safe_file.h:
