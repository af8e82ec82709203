build-x/obj/src/codeobj/mpcheck.o: src/codeobj/mpcheck.c \
 src/codeobj/internal.h src/codeobj/codeobj.h
src/codeobj/internal.h:
src/codeobj/codeobj.h:
