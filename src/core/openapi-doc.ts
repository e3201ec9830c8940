/**
 * The parts of an OpenAPI 3.0 document svc reads and rewrites (the swagger plugin's output, the MCP
 * tool builder's input). Schemas are open-ended JSON: the keywords walked here are typed, every
 * other keyword is carried through as `unknown`.
 */
export interface SchemaNode {
  [keyword: string]: unknown;
  $ref?: string;
  title?: string;
  description?: string;
  type?: string | string[];
  nullable?: boolean;
  required?: string[];
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  not?: SchemaNode;
  allOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  contentMediaType?: string;
}

export interface MediaType {
  schema?: SchemaNode;
  example?: unknown;
}

export interface ResponseObject {
  description?: string;
  content?: Record<string, MediaType>;
  headers?: Record<string, unknown>;
}

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: SchemaNode;
}

export interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, ResponseObject>;
  security?: Record<string, string[]>[];
}

export interface OpenApiDoc {
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, SchemaNode>; [section: string]: unknown };
  [field: string]: unknown;
}
