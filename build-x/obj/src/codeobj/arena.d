build-x/obj/src/codeobj/arena.o: src/codeobj/arena.c \
 src/codeobj/internal.h src/codeobj/codeobj.h
src/codeobj/internal.h:
src/codeobj/codeobj.h:
