build-x/obj/src/fileio/safe_file.o: src/fileio/safe_file.c \
 src/fileio/safe_file.h
src/fileio/safe_file.h:
