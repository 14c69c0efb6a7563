{%- extends 'manage_students_base.tpl' -%}

{%- block head -%}
<script src="{{ base_url }}{{ GUIONES }}/manage_students.js"></script>
{%- endblock -%}

{%- block breadcrumbs -%}
<ol class="breadcrumb">
  <li class="active">Estudiantes</li>
</ol>
{%- endblock -%}

{%- block table_header -%}
<tr>
  <th>Nombre</th>
  <th class="text-center">Identificador</th>
  <th class="text-center">Correo electrónico</th>
  <th class="text-center">Nota (todas las tareas)</th>
  <th class="text-center no-sort">Editar</th>
</tr>
{%- endblock -%}

{%- block table_body -%}
<tr><td colspan="5">Cargando…</td></tr>
{%- endblock -%}

{%- block table_footer -%}
<tr>
  <td colspan="5">
    <span class="glyphicon glyphicon-plus" aria-hidden="true"></span>
    <a href="#" onClick="createStudentModal();">Añadir un estudiante…</a>
  </td>
</tr>
{%- endblock -%}
