{%- extends 'base.tpl' -%}
{%- set seccion = "tareas" -%}

{%- block head -%}
<script>
var url_prefix = "{{ url_prefix }}";
var default_timezone = "{{ default_timezone }}";
</script>

<script src="{{ base_url }}{{ GUIONES }}/manage_assignments.js"></script>
{%- endblock -%}

{%- block title -%}
Tareas
{%- endblock -%}

{%- block breadcrumbs -%}
<ol class="breadcrumb">
  <li class="active">Tareas</li>
</ol>
{%- endblock -%}

{%- block messages -%}
<div class="panel-group" id="accordion" role="tablist" aria-multiselectable="true">
  <div class="panel panel-default">
    <div class="panel-heading" role="tab" id="headingOne">
      <h4 class="panel-title">
        <a class="collapsed" role="button" data-toggle="collapse" data-parent="#accordion" href="#collapseOne" aria-expanded="false" aria-controls="collapseOne">
          Cómo se usa esta página (pulsa para verlo)
        </a>
      </h4>
    </div>
    <div id="collapseOne" class="panel-collapse collapse" role="tabpanel" aria-labelledby="headingOne">
      <div class="panel-body">
        <ul>
          <li>Una tarea nueva: «Añadir una tarea…», debajo de la tabla. Su cuaderno se escribe en
            <code>source/&lt;tarea&gt;/</code>, con la barra «Crear tarea» de JupyterLab.</li>
          <li>El nombre de una tarea abre su carpeta de <code>source/</code>; el lápiz cambia su fecha de entrega.</li>
          <li>El birrete genera la versión de los estudiantes (como <code>make release</code>) y la lupa abre esa versión.</li>
          <li><i>Con un intercambio de nbgrader (JupyterHub):</i> la nube con la flecha hacia arriba publica la
            tarea para los estudiantes, la cruz la retira (quien ya la haya descargado la conserva) y la
            nube con la flecha hacia abajo recoge las entregas. Hace falta <code>course_id</code> en
            <code>nbgrader_config.py</code>.</li>
          <li>El número de entregas abre la lista de la tarea, donde se corrige cada entrega. La clase
            entera se corrige mejor con <code>make grade</code> desde la terminal: corrige en paralelo,
            escribe <code>exports/notas.csv</code> y el informe de la clase.</li>
          <li>Las notas que se ven en estas páginas son las que cuentan, las de <code>exports/notas.csv</code>:
            ya con el descuento por retraso, y «no corregido» para una entrega que no se ha podido corregir.</li>
        </ul>
      </div>
    </div>
  </div>
</div>
{% if current_config %}
<div class="panel-group" id="config" role="tablist" aria-multiselectable="true">
  <div class="panel panel-default">
    <div class="panel-heading" role="tab" id="headingConfig">
      <h4 class="panel-title">
        <a class="collapsed" role="button" data-toggle="collapse" data-parent="#accordion" href="#collapseConfig" aria-expanded="false" aria-controls="collapseConfig">
          La configuración de nbgrader que está en uso (pulsa para verla)
        </a>
      </h4>
    </div>
    <div id="collapseConfig" class="panel-collapse collapse" role="tabpanel" aria-labelledby="headingConfig">
      <pre class="panel-body">{{ current_config }}</pre>
    </div>
  </div>
</div>
{% endif %}
{% if windows %}
<div class="alert alert-warning" id="warning-windows">
En Windows, nbgrader no puede publicar tareas ni recoger entregas: esos botones no se muestran.
</div>
{% elif exchange_missing %}
<div class="alert alert-warning" id="warning-exchange">
La carpeta de intercambio de nbgrader, <code>{{ exchange }}</code>, no existe y no se ha podido crear, así
que no se pueden publicar tareas ni recoger entregas. <code>make install</code> (o <code>make hub</code>)
la prepara; la documentación de nbgrader lo explica en
<a href="https://nbgrader.readthedocs.io/en/stable/user_guide/managing_assignment_files.html#setting-up-the-exchange">«Setting up the exchange»</a>.
</div>
{% elif not course_id %}
<div class="alert alert-warning" id="warning-course-id">
Falta <code>course_id</code> en <code>nbgrader_config.py</code>: sin él no se pueden publicar tareas ni
recoger entregas.
</div>
{% endif %}
{%- endblock -%}

{%- block table_header -%}
<tr>
  <th>Tarea</th>
  <th class="text-center">Fecha de entrega</th>
  <th class="text-center">Estado</th>
  <th class="text-center no-sort">Editar</th>
  <th class="text-center no-sort">Generar</th>
  <th class="text-center no-sort">Ver</th>
  <th class="text-center no-sort">Publicar</th>
  <th class="text-center no-sort">Recoger</th>
  <th class="text-center">Entregas</th>
  <th class="text-center no-sort">Generar la retroalimentación</th>
  <th class="text-center no-sort">Publicar la retroalimentación</th>
</tr>
{%- endblock -%}

{%- block table_body -%}
<tr><td colspan="11">Cargando…</td></tr>
{%- endblock -%}

{%- block table_footer -%}
<tr>
  <td colspan="11">
    <span class="glyphicon glyphicon-plus" aria-hidden="true"></span>
    <a href="#" onClick="createAssignmentModal();">Añadir una tarea…</a>
  </td>
</tr>
{%- endblock -%}
