{%- extends 'base.tpl' -%}

{%- block title -%}
Algo ha fallado
{%- endblock -%}

{%- block body -%}
<div class="panel-body">
El formgrader ha tenido un problema y no puede enseñar esta página. Si la carpeta del curso no está
dentro de la que abre JupyterLab, nbgrader no la encuentra: abre JupyterLab desde la raíz del curso
(o una carpeta que la contenga). El registro del servidor dice el resto.
<span id="error-{{ error_code }}"></span>
</div>
{%- endblock -%}
