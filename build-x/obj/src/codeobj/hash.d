build-x/obj/src/codeobj/hash.o: src/codeobj/hash.c src/codeobj/internal.h \
 src/codeobj/codeobj.h
src/codeobj/internal.h:
src/codeobj/codeobj.h:
