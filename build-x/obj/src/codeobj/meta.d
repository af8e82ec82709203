build-x/obj/src/codeobj/meta.o: src/codeobj/meta.c src/codeobj/internal.h \
 src/codeobj/codeobj.h
src/codeobj/internal.h:
src/codeobj/codeobj.h:
