// CnC: the Concurrent Collections graph language (DESIGN.md section 13; the
// notation of CnC-HC and CnC-CUDA). A graph declares item, tag and step
// collections and constants, prescribes steps by tags, relates steps to the
// items they get and put through tag functions, and says what the
// environment puts and gets. Affinity kinds and the names in tag functions
// are identifiers here; the checker resolves them.
grammar CnC;

graph
    : statement* EOF
    ;

statement
    : IMPORT qualifiedName ';'                                   # importStatement
    | '|' name=ID value=number '|' ';'                           # constantStatement
    | '[' type_ name=ID ']' ';'                                  # itemStatement
    | '<' INT_TYPE '[' components=INT ']' name=ID '>' ';'        # tagStatement
    | '(' name=ID ')' ';'                                        # stepStatement
    | '<' tag=ID '>' '::' '(' step=ID affinity? ')' ';'          # prescriptionStatement
    | chain ';'                                                  # relationStatement
    | ENV '->' envTarget (',' envTarget)* ';'                    # envPutStatement
    | ENV '<-' envTarget (',' envTarget)* ';'                    # envGetStatement
    ;

// A step's gets and puts: [a : k], [b : k - 1] -> (s : k) -> [c : k].
chain
    : (items '->')? stepInstance ('->' items)?
    ;

items
    : itemInstance (',' itemInstance)*
    ;

// [item : k] binds the kernel parameter of the item's name; [a = item : k]
// binds parameter a (two items for one parameter: the item got is copied
// into the item put, and the kernel updates it in place).
itemInstance
    : '[' (parameter=ID '=')? name=ID ':' expr (',' expr)* ']'
    ;

stepInstance
    : '(' name=ID ':' ID (',' ID)* ')'
    ;

affinity
    : '@' affinityWeight (',' affinityWeight)*
    ;

affinityWeight
    : kind=ID '=' weight=INT
    ;

envTarget
    : '<' name=ID ':' range (',' range)* '>'                     # envTag
    | '[' name=ID ':' range (',' range)* ']'                     # envItem
    ;

// {0 .. 15}; i = {0 .. n - 1}, j = {0 .. i}: a named range's name may bound
// the ranges after it (triangular sets of tags).
range
    : (name=ID '=')? '{' low=expr '..' high=expr '}'
    ;

type_
    : base=(INT_TYPE | FLOAT_TYPE | DOUBLE_TYPE | BYTE_TYPE | BOOL_TYPE) ('[' expr (',' expr)* ']')?
    ;

expr
    : '(' expr ')'                                               # parenExpr
    | op='-' expr                                                # negateExpr
    | expr op=('*' | '/') expr                                   # binaryExpr
    | expr op=('+' | '-') expr                                   # binaryExpr
    | INT                                                        # intExpr
    | ID                                                         # nameExpr
    ;

number
    : '-'? (INT | FLOAT)
    ;

qualifiedName
    : ID ('.' ID)*
    ;

IMPORT      : 'import' ;
ENV         : 'env' ;
INT_TYPE    : 'int' ;
FLOAT_TYPE  : 'float' ;
DOUBLE_TYPE : 'double' ;
BYTE_TYPE   : 'byte' ;
BOOL_TYPE   : 'bool' ;

ID    : [a-zA-Z_] [a-zA-Z_0-9]* ;
FLOAT : [0-9]+ '.' [0-9]+ ([eE] [+-]? [0-9]+)? | [0-9]+ [eE] [+-]? [0-9]+ ;
INT   : [0-9]+ ;

LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
WS            : [ \t\r\n\f]+ -> skip ;

// Anything else becomes a token the parser rejects with a located error.
UNEXPECTED_CHAR : . ;
