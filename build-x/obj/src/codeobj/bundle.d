build-x/obj/src/codeobj/bundle.o: src/codeobj/bundle.c \
 src/codeobj/internal.h src/codeobj/codeobj.h
src/codeobj/internal.h:
src/codeobj/codeobj.h:
