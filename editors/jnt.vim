" editors/jnt.vim: syntax highlighting for jnt model files (*.jnt).
" Install: copy to ~/.vim/syntax/jnt.vim and add
"   au BufRead,BufNewFile *.jnt set filetype=jnt
" to your vimrc. tests/cli/editors.sh checks the keyword and function lists
" against grammar/lexer.re and compiler/sema_expr.c, so they cannot drift.
if exists("b:current_syntax")
  finish
endif

" keywords (grammar/lexer.re's table)
syn keyword jntKeyword analysis and between body const contact damper der discrete dof
syn keyword jntKeyword else every force friction ground if import in init integral
syn keyword jntKeyword interface joint law let marker model motion not on or output
syn keyword jntKeyword param point simulate spring state substructure summary then update

" built-in functions (compiler/sema_expr.c's builtins) and names
syn keyword jntFunction sin cos tan asin acos atan sinh cosh tanh exp log sqrt abs sign
syn keyword jntFunction floor atan2 min max pow clamp step3 smoothstep half_cosine
syn keyword jntConstant t pi

syn match   jntNumber  "\<\d\+\(\.\d*\)\=\([eE][-+]\=\d\+\)\=\>"
syn match   jntNumber  "\.\d\+\([eE][-+]\=\d\+\)\=\>"
syn region  jntString  start=+"+ end=+"+ oneline
syn match   jntComment "//.*$" contains=@Spell
syn region  jntComment start="/\*" end="\*/" contains=@Spell

hi def link jntKeyword  Keyword
hi def link jntFunction Function
hi def link jntConstant Constant
hi def link jntNumber   Number
hi def link jntString   String
hi def link jntComment  Comment

let b:current_syntax = "jnt"
